"""LightGBM trees as the flat arrays `paperscope.relevance.model.Tree` evaluates with numpy."""

from __future__ import annotations

from typing import Any


def _flatten(node: dict[str, Any], tree: dict[str, list[Any]]) -> int:
    """Append `node` (and its subtree) to the flat arrays of `tree`; return its index."""
    i = len(tree["feature"])
    for key, blank in (("feature", -1), ("threshold", 0.0), ("left", -1), ("right", -1), ("value", 0.0),
                       ("default_left", True)):
        tree[key].append(blank)
    if "leaf_value" in node:
        tree["value"][i] = float(node["leaf_value"])
        return i
    if node.get("decision_type", "<=") != "<=":
        raise ValueError(f"unsupported split {node.get('decision_type')}")
    tree["feature"][i] = int(node["split_feature"])
    tree["threshold"][i] = float(node["threshold"])
    tree["default_left"][i] = bool(node.get("default_left", True))
    tree["left"][i] = _flatten(node["left_child"], tree)
    tree["right"][i] = _flatten(node["right_child"], tree)
    return i


def export_trees(booster: Any) -> list[dict[str, list[Any]]]:
    """LightGBM's trees as flat arrays (see `relevance.model.Tree`)."""
    out = []
    for info in booster.dump_model()["tree_info"]:
        tree: dict[str, list[Any]] = {k: [] for k in ("feature", "threshold", "left", "right", "value", "default_left")}
        _flatten(info["tree_structure"], tree)
        out.append(tree)
    return out
