"""The page's charts as Vega-Lite specs: plain dicts with their data inline, one small function each
(win rates with their intervals, score boxes, categories, the heat map, the components' scatter,
histograms, periods, and A against B), with the palette and the look every chart shares. A spec is
None when there is nothing to draw; with two packs, A's marks and B's are drawn side by side in
their colours.
"""

from __future__ import annotations

from ....dsl.diagnostics import safe

LEADER_LABELS = 8          # periods up to which two packs' bars of the winner leading are labelled
# Okabe & Ito's palette, safe for colour-blind readers; yellow and black last (weak on white, or stark)
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]
BLUE, ORANGE, GREEN, RED = PALETTE[0], PALETTE[1], PALETTE[2], PALETTE[3]
GREY = "#767676"
A_COLOUR, B_COLOUR = BLUE, RED
PURPLE = PALETTE[4]
# what a forest plot's filled and hollow dots say: its legend
FLAGGED = "differs from the even share (z-test, Benjamini-Hochberg q < 0.05)"
NOT_FLAGGED = "not shown to differ"


def config() -> dict:
    """The look shared by every chart."""
    return {"font": "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
            "background": "white", "padding": 6,
            "range": {"category": PALETTE},
            "view": {"stroke": None},
            "axis": {"labelFontSize": 11, "titleFontSize": 12, "titleFontWeight": "normal", "titleColor": "#444",
                     "gridColor": "#ececec", "domainColor": "#888", "tickColor": "#888", "labelLimit": 220},
            "legend": {"labelFontSize": 11, "titleFontSize": 12, "labelLimit": 420, "orient": "bottom",
                       "direction": "horizontal"}}


# ---- what several charts share -----------------------------------------------------------------


def _pack_colour(packs: list[str]) -> dict:
    return {"field": "pack", "type": "nominal", "title": None,
            "scale": {"domain": packs, "range": [A_COLOUR, B_COLOUR]}}


def _offset(packs: list[str], channel: str) -> dict:
    """The encoding that sets A's mark and B's beside each other in a band (`channel`: yOffset or
    xOffset); a band keeps B's place when B lacks its row. None with one pack."""
    return {channel: {"field": "pack", "type": "nominal", "scale": {"domain": packs}}} if packs else {}


def _beside(packs: list[str], channel: str) -> dict:
    """`_offset`, and each pack's colour."""
    return _offset(packs, channel) | ({"color": _pack_colour(packs)} if packs else {})


def _band(packs: list[str], step: int) -> dict:
    """The size of a chart's band (a row per name, or a column per value), `step` pixels; half as much
    again with two packs' marks in each band."""
    return {"step": step * 3 // 2, "for": "position"} if packs else {"step": step}


def _pack_tips(rows: list[dict], packs: list[str]) -> list[dict]:
    """The tooltip's lines of the pack, and of the move where the rows have one."""
    if not packs:
        return []
    return [{"field": "pack"}, *([{"field": "move", "title": "move from A to B"}] * any("move" in r for r in rows))]


def side_by_side(specs: list[dict | None], packs: list[str], how: str = "hconcat") -> dict | None:
    """Each pack's chart, titled with its label in its colour, side by side (or one above the other)
    on shared axes: what one pack lacks leaves its row empty in the other's chart."""
    parts = [spec | {"title": {"text": label, "anchor": "start", "color": colour, "fontSize": 13}}
             for spec, label, colour in zip(specs, packs, (A_COLOUR, B_COLOUR)) if spec is not None]
    if not parts:
        return None
    return {how: parts, "resolve": {"scale": {"x": "shared", "y": "shared"}}}


def _even_rule(players: int, channel: str) -> dict:
    """The dashed rule of the even share of wins, 1/players, across a chart."""
    return {"data": {"values": [{"even": 1 / players}]},
            "mark": {"type": "rule", "color": GREY, "strokeDash": [5, 4]},
            "encoding": {channel: {"field": "even", "type": "quantitative"},
                         "tooltip": [{"field": "even", "title": "even share", "format": ".1%"}]}}


# ---- wonders, seats and bots -------------------------------------------------------------------


def forest_spec(rows: list[dict], players: int, what: str, packs: list[str] = ()) -> dict | None:
    """Win rates as dots on their 95% intervals, one row per `what`, with the even share dashed;
    with two `packs`, A's dot and B's side by side in each row, in their colours."""
    if not rows:
        return None
    y = {"field": "name", "type": "nominal", "sort": None, "title": None}
    x = {"type": "quantitative", "scale": {"zero": True, "nice": True}}
    tooltip = [{"field": "name", "title": what}, {"field": "games", "title": "player-games"},
               {"field": "wins", "title": "wins"}, {"field": "rate", "title": "win rate", "format": ".1%"},
               {"field": "interval", "title": "95% interval"},
               {"field": "q", "title": "q against the even share"},
               {"field": "score", "title": "mean score", "format": ".2f"},
               {"field": "seed", "title": "sample game's seed"}, *_pack_tips(rows, packs)]
    # filled (in its pack's colour) only where the adjusted test flags the row, white elsewhere; an
    # unseen layer of its own gives the legend that says which test
    filled = {"condition": {"test": f"datum.test === {FLAGGED!r}",
                            **(_pack_colour(packs) | {"legend": None} if packs else {"value": BLUE})},
              "value": "white"}
    key = {"data": {"values": [{"test": FLAGGED}, {"test": NOT_FLAGGED}]},
           "mark": {"type": "point", "opacity": 0},
           "encoding": {"fill": {"field": "test", "type": "nominal", "title": None,
                                 "scale": {"domain": [FLAGGED, NOT_FLAGGED], "range": [GREY, "white"]},
                                 "legend": {"symbolOpacity": 1, "symbolStrokeColor": GREY, "symbolStrokeWidth": 1.5,
                                            "direction": "vertical", "labelLimit": 640}}}}
    beside = _beside(packs, "yOffset")
    return {
        "width": 640, "height": _band(packs, 22), "data": {"values": rows},
        "layer": [
            {"mark": {"type": "rule", "color": BLUE, "strokeWidth": 2},
             "encoding": {"y": y, "x": {**x, "field": "lo", "title": "win rate, with its 95% interval",
                                        "axis": {"format": "%"}}, "x2": {"field": "hi"}, **beside}},
            {"mark": {"type": "point", "size": 80, "strokeWidth": 2, "color": BLUE, "opacity": 1},
             "encoding": {"y": y, "x": {**x, "field": "rate"}, "tooltip": tooltip, "fill": filled, **beside}},
            _even_rule(players, "x"),
            key,
        ],
        "resolve": {"scale": {"fill": "independent"}, "legend": {"fill": "independent"}}}


def box_spec(rows: list[dict], what: str, packs: list[str] = ()) -> dict | None:
    """Box plots drawn from quantiles: whiskers p5-p95, box q1-q3, median tick, min and max dots;
    with two `packs`, A's box and B's side by side in each row, in their colours."""
    if not rows:
        return None
    y = {"field": "name", "type": "nominal", "sort": None, "title": None}
    score = {"type": "quantitative", "title": "final score", "scale": {"zero": False}}
    tooltip = [{"field": "name", "title": what}, {"field": "n", "title": "player-games"},
               *({"field": k, "title": k} for k in ("min", "p5", "q1", "median", "q3", "p95", "max", "mean")),
               *_pack_tips(rows, packs)]
    size = 10 if packs else 14
    beside, offset = _beside(packs, "yOffset"), _offset(packs, "yOffset")
    return {
        "width": 640, "height": _band(packs, 22), "data": {"values": rows},
        "layer": [
            {"mark": {"type": "rule", "color": BLUE}, "encoding": {"y": y, "x": {**score, "field": "p5"},
                                                                   "x2": {"field": "p95"}, **beside}},
            {"mark": {"type": "bar", "color": BLUE, "opacity": 0.75, "size": size},
             "encoding": {"y": y, "x": {**score, "field": "q1"}, "x2": {"field": "q3"}, "tooltip": tooltip,
                          **beside}},
            {"mark": {"type": "tick", "color": "white", "thickness": 2, "size": size},
             "encoding": {"y": y, "x": {**score, "field": "median"}, "tooltip": tooltip, **offset}},
            {"transform": [{"fold": ["min", "max"], "as": ["end", "value"]}],
             "mark": {"type": "point", "color": GREY, "size": 20, "filled": True},
             "encoding": {"y": y, "x": {**score, "field": "value"},
                          "tooltip": [{"field": "name", "title": what}, {"field": "end"}, {"field": "value"},
                                      *_pack_tips([], packs)], **offset}},
        ]}


# ---- scoring categories ------------------------------------------------------------------------


def category_spec(rows: list[dict], packs: list[str] = ()) -> dict | None:
    """Mean points per category as bars, with their 95% intervals; with two `packs`, A's bar and B's
    side by side, in their colours."""
    if not rows:
        return None
    y = {"field": "category", "type": "nominal", "sort": None, "title": None}
    return {"width": 640, "height": _band(packs, 24), "data": {"values": rows},
            "layer": [
                {"mark": {"type": "bar", "color": BLUE, "opacity": 0.8},
                 "encoding": {"y": y, "x": {"field": "mean", "type": "quantitative", "title": "mean points per player"},
                              "tooltip": [{"field": "category"}, {"field": "mean", "format": ".2f"},
                                          {"field": "lo", "title": "95% low", "format": ".2f"},
                                          {"field": "hi", "title": "95% high", "format": ".2f"},
                                          *_pack_tips(rows, packs)], **_beside(packs, "yOffset")}},
                {"mark": {"type": "rule", "color": "#222"},
                 "encoding": {"y": y, "x": {"field": "lo", "type": "quantitative"}, "x2": {"field": "hi"},
                              **_offset(packs, "yOffset")}},
            ]}


def heatmap_spec(rows: list[dict], categories: list[str], wonders: list[str], top: float | None = None) -> dict | None:
    """Wonders by categories, each cell coloured and labelled by its mean points (white on the cells
    above 60% of `top`, the highest of the rows when not given)."""
    if not rows:
        return None
    top = (max(r["points"] for r in rows) if top is None else top) or 1
    x = {"field": "category", "type": "nominal", "sort": [safe(c) for c in categories], "title": None,
         "axis": {"orient": "top", "labelAngle": -30}}
    y = {"field": "wonder", "type": "nominal", "sort": wonders or None, "title": None}
    return {"data": {"values": rows}, "width": {"step": 64}, "height": {"step": 24},
            "encoding": {"x": x, "y": y},
            "layer": [
                {"mark": "rect", "encoding": {
                    "color": {"field": "points", "type": "quantitative", "scale": {"scheme": "blues"},
                              "title": "mean points"},
                    "tooltip": [{"field": "wonder"}, {"field": "category"}, {"field": "points", "format": ".2f"}]}},
                {"mark": {"type": "text", "fontSize": 11}, "encoding": {
                    "text": {"field": "points", "type": "quantitative", "format": ".1f"},
                    "color": {"condition": {"test": f"datum.points > {0.6 * top}", "value": "white"},
                              "value": "#222"}}},
            ]}


# ---- components --------------------------------------------------------------------------------


def component_spec(rows: list[dict], players: int, groups: list[str] | None = None, width: int = 760,
                   height: int = 420, packs: list[str] = ()) -> dict | None:
    """Each component's take rate (x) against its takers' win rate (y), coloured and shaped by
    group (`groups`, those of the rows when not given), or with two `packs` coloured by pack;
    the extremes labelled."""
    if not rows:
        return None
    x = {"field": "rate", "type": "quantitative", "title": "taken by (share of player-games)",
         "axis": {"format": "%"}, "scale": {"domain": [0, 1]}}
    y = {"field": "win", "type": "quantitative", "title": "win rate of its takers", "axis": {"format": "%"},
         "scale": {"zero": True, "nice": True}}
    groups = groups or sorted({r["group"] for r in rows})
    colour = (_pack_colour(packs) | {"legend": None} if packs
              else {"field": "group", "type": "nominal", "scale": {"domain": groups, "range": PALETTE}})
    shape = {"field": "group", "type": "nominal", "scale": {"domain": groups}}  # the same legend as colour
    tooltip = [{"field": "id", "title": "component"}, {"field": "group"}, {"field": "taken", "title": "taken"},
               {"field": "rate", "title": "take rate", "format": ".1%"},
               {"field": "win", "title": "win rate if taken", "format": ".1%"},
               {"field": "win_interval", "title": "95% interval"},
               {"field": "win_not", "title": "win rate if not", "format": ".1%"},
               {"field": "seed", "title": "sample game's seed"}]
    return {"width": width, "height": height, "data": {"values": rows},
            "layer": [
                _even_rule(players, "y"),
                {"mark": {"type": "point", "filled": True, "size": 60, "opacity": 0.85},
                 "encoding": {"x": x, "y": y, "color": colour, "shape": shape,
                              "tooltip": tooltip}},
                {"transform": [{"filter": "datum.extreme"}],
                 "mark": {"type": "text", "align": "left", "dx": 7, "fontSize": 10, "color": "#333"},
                 "encoding": {"x": x, "y": y, "text": {"field": "id"}}},
            ]}


# ---- game length and periods -------------------------------------------------------------------


def histogram_spec(rows: list[dict], title: str, bins: bool, packs: list[str] = ()) -> dict | None:
    """Counts of games by a value (rows `{value, count}`), binned when the values are many; with two
    `packs` (rows naming theirs), A's bar and B's side by side, or binned, A's histogram above B's
    on the same bins."""
    if not rows:
        return None
    spec = {"width": 640, "height": 180, "data": {"values": rows},
            "mark": {"type": "bar", "color": BLUE, "opacity": 0.85},
            "encoding": {"y": {"field": "count", "type": "quantitative", "title": "games"},
                         "tooltip": [{"field": "value", "title": title}, {"field": "count", "title": "games"},
                                     *_pack_tips(rows, packs)]}}
    if bins and len({r["value"] for r in rows}) > 20:
        spec["transform"] = [{"bin": {"maxbins": 30}, "field": "value", "as": ["lo", "hi"]},
                             {"aggregate": [{"op": "sum", "field": "count", "as": "count"}],
                              "groupby": ["lo", "hi", *(["pack"] if packs else [])]}]
        spec["encoding"] |= {"x": {"field": "lo", "type": "quantitative", "bin": {"binned": True}, "title": title},
                             "x2": {"field": "hi"},
                             "tooltip": [{"field": "lo", "title": "from"}, {"field": "hi", "title": "below"},
                                         {"field": "count", "title": "games"}, *_pack_tips([], packs)]}
        if packs:  # a row each, the bins made over both
            spec["height"] = 110
            spec["encoding"] |= {"color": _pack_colour(packs) | {"legend": None},
                                 "row": {"field": "pack", "type": "nominal", "sort": packs, "title": None,
                                         "header": {"labelAngle": 0, "labelAlign": "left", "labelAnchor": "start",
                                                    "labelOrient": "top", "labelFontSize": 12}}}
    else:  # few values: a bar each, of a set width
        spec["width"] = _band(packs, 36)
        spec["encoding"]["x"] = {"field": "value", "type": "ordinal", "title": title, "axis": {"labelAngle": 0}}
        spec["encoding"] |= _beside(packs, "xOffset")
    return spec


def period_score_spec(periods: list[dict], colour: str | None = None) -> dict | None:
    """Mean score after each period: final winners, the others, everyone; in three colours, or in one
    (a pack's `colour`) told apart by their dashes."""
    who = [("mean_winner", "final winners"), ("mean_others", "the others"), ("mean_score", "all players")]
    rows = [{"period": p["period"], "who": label, "score": p[key], "games": p["games"]}
            for p in periods for key, label in who if p.get(key) is not None]
    if not rows:
        return None
    labels = [label for _, label in who]
    if colour:  # the three lines told apart by their dashes alone: dots would hide them
        colours, dashes = {"value": colour}, [[1, 0], [6, 3], [2, 3]]
        legend = {"legend": {"symbolType": "stroke", "symbolStrokeColor": "#444", "symbolSize": 300}}
    else:
        colours = {"field": "who", "type": "nominal", "title": None,
                   "scale": {"domain": labels, "range": [BLUE, ORANGE, GREY]}}
        dashes, legend = [[1, 0], [1, 0], [4, 3]], {}
    return {"width": 640, "height": 260, "data": {"values": rows},
            "mark": {"type": "line", "point": not colour, "strokeWidth": 2},
            "encoding": {
                "x": {"field": "period", "type": "ordinal", "title": "after period", "axis": {"labelAngle": 0}},
                "y": {"field": "score", "type": "quantitative", "title": "mean score"},
                "color": colours,
                "strokeDash": {"field": "who", "type": "nominal", "title": None,
                               "scale": {"domain": labels, "range": dashes}, **legend},
                "tooltip": [{"field": "period"}, {"field": "who"}, {"field": "score", "format": ".2f"},
                            {"field": "games", "title": "games that reached it"}]}}


def leader_spec(rows: list[dict], packs: list[str] = ()) -> dict | None:
    """The share of games whose final winner led after each period, as bars (rows `{period, share,
    games}`); with two `packs`, A's bar and B's side by side, labelled only where they have room."""
    if not rows:
        return None
    labels = [{"mark": {"type": "text", "dy": -7, "fontSize": 11},
               "encoding": {"text": {"field": "share", "type": "quantitative", "format": ".0%"}}}]
    return {"width": 640, "height": 180, "data": {"values": rows},
            "encoding": {"x": {"field": "period", "type": "ordinal", "title": "after period",
                               "axis": {"labelAngle": 0}},
                         "y": {"field": "share", "type": "quantitative", "title": "final winner led",
                               "axis": {"format": "%"}, "scale": {"domain": [0, 1]}},
                         **_offset(packs, "xOffset")},
            "layer": [{"mark": {"type": "bar", "color": GREEN, "opacity": 0.85},
                       "encoding": {"tooltip": [{"field": "period"}, {"field": "share", "format": ".1%"},
                                                {"field": "games", "title": "games that reached it"},
                                                *_pack_tips([], packs)],
                                    **({"color": _pack_colour(packs)} if packs else {})}},
                      *(labels if not packs or len(rows) <= 2 * LEADER_LABELS else [])]}


# ---- A against B -------------------------------------------------------------------------------


def dumbbell_spec(rows: list[dict], labels: list[str], players: int) -> dict | None:
    """Pack A's and pack B's win rate per wonder, two dots joined, in two colours; a wonder of one
    pack only has its dot alone."""
    rows = [r for r in rows if r["a"] is not None or r["b"] is not None]
    if not rows:
        return None
    y = {"field": "name", "type": "nominal", "sort": None, "title": None}
    x = {"type": "quantitative", "title": "win rate", "axis": {"format": "%"}, "scale": {"zero": True, "nice": True}}
    # a dot per pack and wonder, A's before B's so that B's is drawn over it; the packs' names as data
    dots = [{"name": r["name"], "which": which, "pack": label, "rate": r[which], "q": r["q"]}
            for r in rows for which, label in zip("ab", labels) if r[which] is not None]
    joined = [r for r in rows if r["a"] is not None and r["b"] is not None]
    return {"width": 640, "height": {"step": 24}, "data": {"values": rows},
            "layer": [
                *([{"data": {"values": joined}, "mark": {"type": "rule", "color": "#bbb", "strokeWidth": 3},
                    "encoding": {"y": y, "x": {**x, "field": "a"}, "x2": {"field": "b"}}}] if joined else []),
                {"data": {"values": dots}, "mark": {"type": "point", "filled": True, "opacity": 1},
                 "encoding": {"y": y, "x": {**x, "field": "rate"},
                              # A's dot larger, under B's: where they coincide A rings B
                              "size": {"field": "which", "type": "ordinal", "legend": None,
                                       "scale": {"domain": ["a", "b"], "range": [190, 70]}},
                              "color": {"field": "pack", "type": "nominal", "title": None,
                                        "scale": {"domain": list(labels), "range": [A_COLOUR, B_COLOUR]}},
                              "tooltip": [{"field": "name", "title": "wonder"}, {"field": "pack"},
                                          {"field": "rate", "title": "win rate", "format": ".1%"},
                                          {"field": "q", "title": "q of the move", "format": ".3g"}]}},
                {"mark": {"type": "text", "align": "left", "dx": 8, "fontSize": 14, "fontWeight": "bold"},
                 "encoding": {"y": y, "x": {**x, "field": "end"}, "text": {"field": "star"}}},
                _even_rule(players, "x"),
            ]}


def move_spec(rows: list[dict], unit: str) -> dict:
    """Significant moves as bars of B minus A, coloured by their direction (in colours of their own:
    blue and vermilion are packs A and B on the page)."""
    fmt = "+.0%" if unit == "rate" else "+.1f"
    data = [{"label": f"{r['kind']}: {r['label']}", "delta": r["delta"], "a": r["a"], "b": r["b"], "q": r["q"],
             "direction": "B higher" if (r["delta"] or 0) >= 0 else "B lower"} for r in rows]
    value = (lambda v: {"field": v, "format": ".1%"}) if unit == "rate" else (lambda v: {"field": v, "format": ".2f"})
    return {"width": 480, "height": {"step": 20}, "data": {"values": data},
            "mark": {"type": "bar"},
            "encoding": {
                "y": {"field": "label", "type": "nominal", "sort": None, "title": None, "axis": {"labelLimit": 320}},
                "x": {"field": "delta", "type": "quantitative", "title": "B minus A",
                      "axis": {"format": fmt}},
                "color": {"field": "direction", "type": "nominal", "title": None,
                          "scale": {"domain": ["B higher", "B lower"], "range": [GREEN, PURPLE]}},
                "tooltip": [{"field": "label", "title": "move"}, {**value("a"), "title": "A"},
                            {**value("b"), "title": "B"},
                            {"field": "delta", "title": "B − A", "format": "+.1%" if unit == "rate" else "+.2f"},
                            {"field": "q", "format": ".3g"}]}}
