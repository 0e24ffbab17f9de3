#!/usr/bin/env python3
"""Rewrites `fmt::format(` calls in continuum's headers to `continuum::detail::message(` (issue 21:
one run-time-format path for the library's messages), re-aligning continuation lines that were
aligned after the call's open parenthesis, and includes <continuum/core/detail/message.hpp>.
The message texts stay byte-identical (only the call changes). Usage, e.g. after a merge brought new calls:
    tools/format_to_message.py $(grep -rl "fmt::format(" include)"""
import re
import sys

OLD = "fmt::format("
NEW = "continuum::detail::message("
INCLUDE = "#include <continuum/core/detail/message.hpp>"


def matching_paren(text, open_index):
    depth = 0
    i = open_index
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "'" and not text[i - 1].isalnum():
            i += 1
            while text[i] != "'":
                i += 2 if text[i] == "\\" else 1
        elif text.startswith("//", i):
            i = text.index("\n", i)
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError("unbalanced call")


def rewrite(text):
    delta = len(NEW) - len(OLD)
    starts = [m.start() for m in re.finditer(re.escape(OLD), text)]
    for start in reversed(starts):
        open_index = start + len(OLD) - 1
        close = matching_paren(text, open_index)
        line_start = text.rfind("\n", 0, start) + 1
        align = open_index - line_start + 1  # column just after the '('
        head, span, tail = text[:open_index], text[open_index:close], text[close:]
        lines = span.split("\n")
        for k in range(1, len(lines)):
            indent = len(lines[k]) - len(lines[k].lstrip(" "))
            if indent >= align and lines[k].strip():
                lines[k] = " " * delta + lines[k]
        head = head[:start] + NEW[:-1] + head[start + len(OLD) - 1:]
        text = head + "\n".join(lines) + tail
    if starts and INCLUDE not in text:
        text = add_include(text)
    return text


def add_include(text):
    """In sorted place among the file's continuum includes, else as a block before the first include."""
    lines = text.split("\n")
    own = [k for k, line in enumerate(lines) if line.startswith("#include <continuum/")]
    if not own:
        first = next(k for k, line in enumerate(lines) if line.startswith("#include "))
        lines[first:first] = [INCLUDE, ""]
        return "\n".join(lines)
    block = [own[0]]
    while block[-1] + 1 < len(lines) and lines[block[-1] + 1].startswith("#include <continuum/"):
        block.append(block[-1] + 1)
    position = next((k for k in block if lines[k] > INCLUDE), block[-1] + 1)
    lines[position:position] = [INCLUDE]
    return "\n".join(lines)


for path in sys.argv[1:]:
    if path.endswith("core/detail/message.hpp"):
        continue  # the path itself (its comment names fmt::format)
    with open(path) as f:
        old = f.read()
    new = rewrite(old)
    if new != old:
        with open(path, "w") as f:
            f.write(new)
