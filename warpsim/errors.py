"""The one exception type a user may see, as a one-line message."""


class UsageError(Exception):
    """Bad input: the message says what is wrong and what to do. The CLIs print it and exit 2."""
