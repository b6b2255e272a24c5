"""The README's promises a newcomer acts on first: the two commands it opens with, and links
between the docs that lead somewhere (a moved or renamed file must not leave a dead link)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.support.rooms import SERVER_LAYERS

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))

_FENCE = re.compile(r"^```.*?^```[ \t]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def first_code_block(text: str) -> list[str]:
    """The lines of the first fenced block in `text`."""
    match = _FENCE.search(text)
    assert match is not None, "no fenced code block"
    return match.group(0).splitlines()[1:-1]


def links(text: str) -> list[str]:
    """Every link and image target outside code, in order."""
    prose = _CODE_SPAN.sub("", _FENCE.sub("", text))
    return _LINK.findall(prose)


def anchor(heading: str) -> str:
    """The fragment GitHub gives a heading: lower case, code marks and punctuation dropped,
    spaces as hyphens."""
    text = heading.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    return {anchor(h) for h in _HEADING.findall(text)}


def dead_links(path: Path) -> list[str]:
    """Relative links of `path` whose file, or heading within it, does not exist."""
    dead = []
    for target in links(path.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        file_part, _, fragment = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists() or (
            fragment and linked.suffix == ".md" and fragment not in anchors(linked)
        ):
            dead.append(target)
    return dead


def test_readme_opens_with_the_commands_a_newcomer_runs() -> None:
    lines = first_code_block(README.read_text(encoding="utf-8"))
    commands = [line.split("#", 1)[0].strip() for line in lines]
    assert commands[:2] == ["make run", "make test"], lines
    assert "open the URL it prints" in lines[0]


def test_the_readme_and_every_doc_have_links() -> None:
    # Guards the link check below against a pattern that silently matches nothing.
    assert len(links(README.read_text(encoding="utf-8"))) >= 10
    assert DOCS


@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda p: p.name)
def test_relative_links_point_to_existing_files(path: Path) -> None:
    assert dead_links(path) == [], f"{path.name}: dead links"


def test_dead_links_are_caught(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("# A heading\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](there.md) [ok](there.md#a-heading) [web](https://example.org/x)\n"
        "[gone](missing.md) [gone](missing.md#x) [no heading](there.md#nothing)\n"
        "`[in code](missing2.md)`\n"
        "```\n[in a block](missing3.md)\n```\n",
        encoding="utf-8",
    )
    assert dead_links(page) == ["missing.md", "missing.md#x", "there.md#nothing"]


_ROOM_ROW = re.compile(r"^\s+(\d+)\s+(\S+/|\(\w+\))\s+(.+?)\s*$")


def rooms_in_docs() -> list[tuple[int, str, set[str]]]:
    """docs/server.md's table of the server's rooms: (layer, room, modules) per row; the modules
    directly in the server package are in rows whose room is in brackets, such as "(base)"."""
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    section = text[text.index("## The server's rooms"):]
    block = first_code_block(section)
    assert block[0].split() == ["layer", "room", "modules"]
    rows = []
    for line in block[1:]:
        match = _ROOM_ROW.match(line)
        assert match is not None, f"not a row of rooms: {line!r}"
        layer, room, modules = match.groups()
        rows.append((int(layer), room, set(modules.split())))
    return rows


def test_the_docs_name_every_server_module_in_its_room_and_layer() -> None:
    """The drawing of the server a newcomer reads is the code: every module of every room, on
    the layer the import rule holds it to (tests/support/rooms.py, tests/invariants/
    test_layers.py)."""
    server = ROOT / "src" / "carroca" / "server"
    on_disk: dict[str, set[str]] = {}
    for path in server.rglob("*.py"):
        parts = path.relative_to(server).with_suffix("").parts
        if "migrations" in parts or parts[-1] == "__init__":
            continue
        room = f"{parts[0]}/" if len(parts) > 1 else "."
        on_disk.setdefault(room, set()).add(parts[-1])
    rows = rooms_in_docs()
    documented = {room: modules for _, room, modules in rows if room.endswith("/")}
    assert documented == {room: mods for room, mods in on_disk.items() if room != "."}
    top_level = [m for _, room, modules in rows if not room.endswith("/") for m in modules]
    assert sorted(top_level) == sorted(on_disk["."])
    layer_of = {name: i for i, layer in enumerate(SERVER_LAYERS) for name in layer}
    for layer, room, modules in rows:
        names = [room.rstrip("/")] if room.endswith("/") else sorted(modules)
        for name in names:
            assert layer_of[name] == layer, f"{name} is on layer {layer_of[name]} in the code"
