"""State deltas: what changed between two state messages of one socket, as a JSON Patch (RFC 6902).

A socket that asks for deltas (``?deltas=1``) gets a full state first, then after each change a
``{"type": "delta", "move_no": N, "patch": [...], "events": [...], "sentences": [...]}``: the
patch turns the last state it was sent (without its per-message keys, ``STATE_ONLY``) into the new
one; ``events`` and ``sentences`` are the new ones, as in a state message.

The patch uses only ``replace`` and ``remove`` on object members and on items of lists whose length
stayed the same (a list whose length changed, or an object that gained a member, is replaced
whole), so it is valid RFC 6902 that any JSON Patch library applies, the browser's applier stays a
few lines, and the patched state's members keep the full state's order.  It is made by walking
both messages together, skipping every subtree that compares equal (compared in C), so it costs
less than serialising the whole view again.  A patch carries nothing the seat's new state does not
carry: every value in it is a part of that state.
"""

from __future__ import annotations

from typing import Any

# Keys of a state message that belong to that message only, not to the state the next patch applies to.
STATE_ONLY = frozenset({"type", "events", "sentences", "history", "log_events", "describe"})


def patch_base(message: dict[str, Any]) -> dict[str, Any]:
    """The part of a state message that the next delta patches."""
    return {key: value for key, value in message.items() if key not in STATE_ONLY}


def _pointer(path: str, key: object) -> str:
    text = key if type(key) is str else str(key)
    if "~" in text or "/" in text:
        text = text.replace("~", "~0").replace("/", "~1")
    return f"{path}/{text}"


def make_patch(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """RFC 6902 operations that turn ``old`` into ``new`` (JSON values; both at ``path``)."""
    ops: list[dict[str, Any]] = []
    _diff(old, new, path, ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]]) -> None:
    kind = type(new)
    if kind is dict and type(old) is dict and old.keys() >= new.keys():
        # (An object that gains a member is replaced whole: an added member would come last, and
        # the patched object's members would not be in the order of the full state's.)
        for key, value in new.items():
            before = old[key]
            if before != value or type(before) is not type(value):
                _diff(before, value, _pointer(path, key), ops)
        if len(old) != len(new):
            ops.extend({"op": "remove", "path": _pointer(path, key)} for key in old if key not in new)
    elif kind is list and type(old) is list and len(old) == len(new) and new:
        for index, value in enumerate(new):
            before = old[index]
            if before != value or type(before) is not type(value):
                _diff(before, value, f"{path}/{index}", ops)
    else:
        ops.append({"op": "replace", "path": path, "value": new})  # path "" replaces the whole document


# Patches of views, by the ids of (view before, view now), each with both views (so that neither id is
# reused meanwhile): the sockets of one seat in several languages share their views, not their messages.
ViewPatches = dict[tuple[int, int], tuple[Any, Any, list[dict[str, Any]]]]


def delta_message(last_base: dict[str, Any], message: dict[str, Any],
                  views: ViewPatches | None = None) -> dict[str, Any]:
    """The delta from the state whose base was ``last_base`` to the state message ``message``; the
    part of the view is taken from (and put into) ``views`` when given."""
    base = patch_base(message)
    before, now = last_base.get("view"), base.get("view")
    if views is None or type(before) is not dict or type(now) is not dict or not last_base.keys() >= base.keys():
        patch = make_patch(last_base, base)
    else:
        found = views.get((id(before), id(now)))
        if found is None or found[0] is not before or found[1] is not now:
            found = views[(id(before), id(now))] = (before, now, make_patch(before, now, "/view"))
        rest_before = {key: value for key, value in last_base.items() if key != "view"}
        patch = make_patch(rest_before, {key: value for key, value in base.items() if key != "view"}) + found[2]
    delta: dict[str, Any] = {"type": "delta", "move_no": message.get("move_no"), "patch": patch,
                             "events": message.get("events", [])}
    if "sentences" in message:
        delta["sentences"] = message["sentences"]
    return delta


def apply_patch(document: Any, patch: list[dict[str, Any]]) -> Any:
    """Apply a patch of add, remove and replace operations in place; the new document.  For
    Python clients (the loadtest's bots); other clients may use any RFC 6902 library."""
    for op in patch:
        path = op["path"]
        if path == "":
            document = op["value"]
            continue
        *parents, last = [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]
        target = document
        for part in parents:
            target = target[int(part)] if type(target) is list else target[part]
        if type(target) is list:
            index = int(last)
            if op["op"] == "remove":
                del target[index]
            elif op["op"] == "add":
                target.insert(index, op["value"])
            else:
                target[index] = op["value"]
        elif op["op"] == "remove":
            del target[last]
        else:
            target[last] = op["value"]
    return document
