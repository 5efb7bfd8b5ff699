"""Errors the command line turns into exit status 2 with a one-line reason."""


class BadInputError(ValueError):
    """Input from outside (a file, an observation, a command-line value) that cannot be used.

    The message is one line a person can act on; the command line prints it and exits 2.
    """
