"""Print how long loading and compiling every shipped pack takes (target: under 1 s in all).

    python benchmarks/load.py
"""

import time

from wonderforge.interpreter.games.check import check_pack
from wonderforge.interpreter.packs.folders import shipped_packs


def main() -> None:
    start = time.perf_counter()
    for folder in shipped_packs():
        t0 = time.perf_counter()
        pack, diagnostics = check_pack(folder)
        errors = sum(d.severity == "error" for d in diagnostics)
        fields = sum(len(c.compiled) for kind in pack.components.values() for c in kind.values()) if pack else 0
        print(f"{folder.name:20} {1000 * (time.perf_counter() - t0):7.1f} ms  {fields:4} texts compiled  {errors} errors")
    print(f"{'all packs (cold)':20} {1000 * (time.perf_counter() - start):7.1f} ms")


if __name__ == "__main__":
    main()
