#!/usr/bin/env python3
"""Which code several object files of one target compile again: for each object (e.g. the Python
module's bind_*.cpp.o), the bytes of global and weak symbols it defines and how many of those another
object defines too (inline functions and template instantiations compiled once per unit), then the
largest such families by name, bytes beyond the first copy. Needs binutils' nm.

Usage: tools/shared_symbols.py OBJECT-DIR [N]
  e.g. tools/shared_symbols.py build/bindings/python/CMakeFiles/_core.dir 25
"""
import collections
import glob
import os
import subprocess
import sys


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    sizes: dict[str, dict[str, int]] = collections.defaultdict(dict)  # symbol -> {unit: bytes}
    for path in sorted(glob.glob(os.path.join(directory, "*.o"))):
        unit = os.path.basename(path).removesuffix(".o").removesuffix(".cpp")
        listing = subprocess.run(["nm", "-S", "-C", "--defined-only", path], capture_output=True, text=True, check=True).stdout
        for line in listing.splitlines():
            fields = line.split(" ", 3)
            if len(fields) == 4 and fields[2] in ("W", "T", "V", "u"):
                sizes[fields[3]][unit] = int(fields[1], 16)
    total: collections.Counter = collections.Counter()
    shared: collections.Counter = collections.Counter()
    families: collections.Counter = collections.Counter()
    members: dict[str, set] = collections.defaultdict(set)
    for symbol, units in sizes.items():
        for unit, size in units.items():
            total[unit] += size
            if len(units) > 1:
                shared[unit] += size
        if len(units) > 1:
            family = symbol.split("(")[0].split("<")[0]
            families[family] += sum(units.values()) - max(units.values())
            members[family].update(units)
    print("unit: bytes it defines (global and weak), of which another unit defines too")
    for unit in sorted(total, key=lambda u: -total[u]):
        print(f"{unit:24s} {total[unit] / 1e6:7.2f} MB   also elsewhere {shared[unit] / 1e6:7.2f} MB")
    print("largest families defined in several units (bytes beyond the first copy):")
    for family, extra in families.most_common(count):
        print(f"{extra / 1e3:8.1f} kB  {family[:100]}  [{', '.join(sorted(members[family]))}]")


if __name__ == "__main__":
    main()
