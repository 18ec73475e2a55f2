"""Where packs lie: the packs WonderForge ships (content/, beside its schemas/), a pack named by
its id or its path, the base an `extends` names, a file of a pack that leads out of its folder, and
a path as the user would type it."""

from __future__ import annotations

from pathlib import Path

# content/ and schemas/ are data, installed beside the code (see pyproject.toml).
HOME = Path(__file__).resolve().parents[2]
CONTENT = HOME / "content"
SCHEMAS = HOME / "schemas"


def shipped_packs() -> list[Path]:
    """The folders of the packs that come with WonderForge."""
    return sorted(p.parent for p in CONTENT.glob("*/pack.yaml"))


def find_pack(name: str) -> Path | None:
    """A pack folder from a shipped pack's id or a path. A bare word that is a shipped id means the
    shipped pack, never a folder of that name in the working folder (`./7-wonders` is that folder)."""
    shipped = CONTENT / name
    if not any(sep in name for sep in "/\\") and (shipped / "pack.yaml").is_file():
        return shipped
    path = Path(name)
    if (path / "pack.yaml").is_file():
        return path
    if path.name == "pack.yaml" and path.is_file():
        return path.parent
    return None


def is_shipped(folder: Path) -> bool:
    """Whether a pack folder is one WonderForge ships."""
    return folder.resolve().parent == CONTENT.resolve()


def base_folder(folder: Path, base_id: str) -> Path | None:
    """The folder of a base an `extends` names: a sibling folder with that id, else a shipped pack. Never a path."""
    if "/" in base_id or "\\" in base_id or base_id.startswith("."):
        return None
    for candidate in (folder.parent / base_id, CONTENT / base_id):
        if (candidate / "pack.yaml").is_file():
            return candidate
    return None


def shown(path: Path) -> str:
    """A path as the user would type it: relative to the working folder when inside it."""
    try:  # the folder resolved, not the file: a link is shown where it lies, not where it leads
        return str((path.parent.resolve() / path.name).relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # outside the working folder, or a loop of links
        return str(path)


def outside(path: Path) -> str | None:
    """Why a file of a pack must not be read: a link that leads out of the pack's folder, or
    that never ends. None for a file of the folder."""
    if not path.is_symlink():
        return None
    try:
        target = path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a loop of links, before Python 3.13
        return "file is a link that never reaches a file (a loop of links)"
    if not target.is_relative_to(path.parent.resolve()):
        return "file links outside the pack's folder"
    return None
