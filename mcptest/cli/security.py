"""placeholder."""


def register(app: object) -> None:
    """Nothing yet."""
