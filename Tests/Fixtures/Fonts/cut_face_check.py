#!/usr/bin/env python3
"""Checks a face `floorhost serve` cut for a page (FontSubsets) against the file it was cut from (run by
Tests/FloorServeTests/FontSubsetTests.swift), with fontTools:

    cut_face_check.py CUT.otf FULL.ttc FACE_INDEX CODEPOINT...

Every code point given that the full face maps is mapped by the cut face to a glyph with the same advance
(hmtx); the cut face maps nothing else past ASCII. Prints one line per problem and exits 1, or prints
`ok: N characters` and exits 0.
"""
import sys

from fontTools.ttLib import TTFont

cut_path, full_path, index, *points = sys.argv[1:]
cut = TTFont(cut_path)
full = TTFont(full_path, fontNumber=int(index), lazy=True)
cut_map, full_map = cut.getBestCmap(), full.getBestCmap()
cut_widths, full_widths = cut["hmtx"].metrics, full["hmtx"].metrics
wanted = {int(p, 16) for p in points}
problems = []
for point in sorted(wanted):
    if point not in full_map:
        continue
    if point not in cut_map:
        problems.append(f"U+{point:04X} is not in the cut face")
    elif cut_widths[cut_map[point]][0] != full_widths[full_map[point]][0]:
        problems.append(f"U+{point:04X}: advance {cut_widths[cut_map[point]][0]} in the cut face, "
                        f"{full_widths[full_map[point]][0]} in the file")
extra = sorted(p for p in cut_map if p >= 0x80 and p not in wanted)
if extra:
    problems.append("the cut face maps characters the page does not hold: "
                    + ", ".join(f"U+{p:04X}" for p in extra[:10]))
for problem in problems:
    print(problem)
if problems:
    sys.exit(1)
print(f"ok: {len(wanted)} characters")
