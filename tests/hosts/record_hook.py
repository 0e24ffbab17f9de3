#!/usr/bin/python3
"""A continuum-ca-provider hook for the tests: appends the JSON it is given on stdin to the file
named by argv[1] (one line per call) and fails (exit 3) while the file argv[1] + ".fail" exists,
or sleeps for ever while argv[1] + ".hang" exists (to test the timeout)."""
import json
import os
import sys
import time

log = sys.argv[1]
description = json.load(sys.stdin)
if os.path.exists(log + ".hang"):
    time.sleep(3600)
if os.path.exists(log + ".fail"):
    sys.exit(3)
with open(log, "a", encoding="utf-8") as out:
    out.write(json.dumps({"argv": sys.argv[2:], "stdin": description}) + "\n")
