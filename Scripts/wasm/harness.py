#!/usr/bin/env python3
"""Writes the Swift harness Scripts/wasm-decode builds into the WebAssembly module: every floor of a page
as bytes in the module, `decode_all` decoding each through its shipped type's declaration (the number that
decode with no error or item left out), and `decode_feed` decoding one ProductFeed floor and checking each
product's id, title and price against the page's JSON (the number of products, or -1 - the failures).
Usage: harness.py PAGE FEED_ID > Harness.swift"""
import json
import sys

TYPES = {"Focus": "FocusFloor", "IconGrid": "IconGridFloor", "ProductFeed": "ProductFeedFloor", "Title": "TitleFloor"}


def literal(text):
    return "##\"" + text + "\"##"


def yuan(price):
    if isinstance(price, (int, float)):
        return float(price)
    return float(price.strip().lstrip("¥￥").replace(",", ""))


def main():
    page = json.load(open(sys.argv[1], encoding="utf-8"))
    feed_id = sys.argv[2]
    floors = [f for f in page["floors"] if f.get("type") in TYPES]
    feed = next(f for f in floors if f.get("id") == feed_id)
    out = ["import FloorKit", ""]
    out.append("func bytes(_ text: StaticString) -> UnsafeRawBufferPointer {")
    out.append("    UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)")
    out.append("}")
    out.append("")
    out.append("func clean<Value>(_ outcome: DecodeOutcome<Value>) -> Bool { outcome.error == nil && outcome.leftOut.isEmpty }")
    out.append("")
    out.append('@_cdecl("decode_all")')
    out.append("func decodeAll() -> Int32 {")
    out.append("    var decoded: Int32 = 0")
    for floor in floors:
        text = json.dumps(floor, ensure_ascii=False, separators=(",", ":"))
        out.append(f"    if clean(DeclaredDecoding.decode({TYPES[floor['type']]}.self, from: bytes({literal(text)}))) {{ decoded += 1 }}")
    out.append("    return decoded")
    out.append("}")
    out.append("")
    out.append('@_cdecl("decode_feed")')
    out.append("func decodeFeed() -> Int32 {")
    text = json.dumps(feed, ensure_ascii=False, separators=(",", ":"))
    out.append(f"    let outcome = DeclaredDecoding.decode(ProductFeedFloor.self, from: bytes({literal(text)}))")
    out.append("    guard clean(outcome), let feed = outcome.value else { return -1000 }")
    out.append(f"    guard feed.items.count == {len(feed['items'])} else {{ return -2000 }}")
    out.append("    var failures: Int32 = 0")
    for i, item in enumerate(feed["items"]):
        out.append(f"    if feed.items[{i}].id != {literal(item['id'])} {{ failures += 1 }}")
        out.append(f"    if feed.items[{i}].title != {literal(item['title'])} {{ failures += 1 }}")
        cents = round(yuan(item["price"]) * 100)
        out.append(f"    if Int((feed.items[{i}].price * 100).rounded()) != {cents} {{ failures += 1 }}")
        if "originalPrice" in item:
            cents = round(yuan(item["originalPrice"]) * 100)
            out.append(f"    if feed.items[{i}].originalPrice.map({{ Int(($0 * 100).rounded()) }}) != {cents} {{ failures += 1 }}")
        else:
            out.append(f"    if feed.items[{i}].originalPrice != nil {{ failures += 1 }}")
    out.append(f"    return failures == 0 ? Int32(feed.items.count) : -1 - failures")
    out.append("}")
    print("\n".join(out))
    print(f"// expect: decode_all {len(floors)} decode_feed {len(feed['items'])}", file=sys.stderr)


main()
