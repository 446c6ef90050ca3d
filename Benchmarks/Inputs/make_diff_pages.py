#!/usr/bin/env python3
"""Generates two versions of a big page for the diffed-reload benchmark (issue 13), from a seed.

  make_diff_pages.py --floors 10000 --changed-percent 1 --out-dir diff

writes diff/old.json (FLOORS floors the shipped plugins render: ProductFeed floors of 2 to 4 products
with a header, Title floors, a few IconGrid and Focus floors), diff/new.json (the same page with
CHANGED-PERCENT of its floors edited as a CMS editor would: one product's price in a feed, or a title's
text; each edit changes exactly one row), and diff/expected.json: {"floors": n, "changedFloors": k,
"changedRows": k}, the height calls a diffed reload must make.
"""
import argparse
import json
import os
import random


def floor(rng, n):
    kind = rng.random()
    if kind < 0.70:
        return {"type": "ProductFeed", "id": f"feed{n}", "header": {"title": f"猜你喜欢 Picks {n}", "sticky": False},
                "items": [{"id": f"p{n}-{i}", "title": f"商品 Product {n}-{i}", "price": f"¥{rng.randint(1, 999)}.00",
                           "img": f"https://img.example.com/p/{n}-{i}.jpg", "jump": {"url": f"app://product/{n}-{i}"}}
                          for i in range(rng.randint(2, 4))]}
    if kind < 0.90:
        return {"type": "Title", "id": f"title{n}", "title": f"楼层 Floor {n}"}
    if kind < 0.95:
        return {"type": "IconGrid", "id": f"grid{n}", "columns": 4,
                "items": [{"id": f"i{n}-{i}", "img": f"https://img.example.com/i/{i}.png", "title": f"频道{i}"} for i in range(8)]}
    return {"type": "Focus", "id": f"focus{n}", "items": [{"id": f"b{n}-{i}", "img": f"https://img.example.com/b/{i}.jpg"} for i in range(3)]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--floors", type=int, default=10000)
    parser.add_argument("--changed-percent", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out-dir", required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    floors = [floor(rng, n) for n in range(args.floors)]
    old = json.dumps({"title": "diff benchmark", "floors": floors}, ensure_ascii=False)
    editable = [i for i, f in enumerate(floors) if f["type"] in ("ProductFeed", "Title")]
    count = round(args.floors * args.changed_percent / 100)
    for i in rng.sample(editable, count):
        f = floors[i]
        if f["type"] == "Title":
            f["title"] += " (edited)"
        else:
            item = rng.choice(f["items"])
            item["price"] = "¥0.99"
    new = json.dumps({"title": "diff benchmark", "floors": floors}, ensure_ascii=False)
    os.makedirs(args.out_dir, exist_ok=True)
    for name, text in (("old.json", old), ("new.json", new)):
        with open(os.path.join(args.out_dir, name), "w") as f:
            f.write(text)
    with open(os.path.join(args.out_dir, "expected.json"), "w") as f:
        json.dump({"floors": args.floors, "changedFloors": count, "changedRows": count}, f)


if __name__ == "__main__":
    main()
