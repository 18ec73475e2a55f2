"""WonderForge: a rules-as-data engine for the 7 Wonders family of board games."""

from pathlib import Path

__version__ = "0.1.0"  # what game logs record as their engine; tests/test_cli_conventions.py holds it to pyproject's


def version() -> str:
    """This WonderForge's version: the installed distribution's, else (a source tree put on the path
    without installing it) the one pyproject.toml beside the package says, else `__version__`."""
    from importlib.metadata import PackageNotFoundError, version as installed
    try:
        return installed("wonderforge")
    except PackageNotFoundError:
        pass
    import tomllib
    try:
        with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as file:
            return str(tomllib.load(file)["project"]["version"])
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError):
        return __version__
