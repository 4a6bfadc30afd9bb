"""Exceptions of the shared verdict layer.

One root exception per package; the CLI catches it at the command boundary and turns it
into a message and an exit code.  Parser and library exceptions never escape the public
API: they are wrapped in one of these.
"""

from __future__ import annotations

__all__ = ["VerdictsError", "InputError", "ConditionSyntaxError", "ConfigError", "OutputPathError", "EnvironmentFailure"]


class VerdictsError(Exception):
    """Root of every error raised on purpose by ``verdicts`` and its domains."""


class InputError(VerdictsError):
    """The input cannot be read at all (no file, unknown form, undecodable bytes).

    Problems with single rows or columns are not raised: they become
    :class:`verdicts.model.InputIssue` records and the rest is still judged.
    """


class ConditionSyntaxError(VerdictsError):
    """A condition text does not follow the grammar.

    ``position`` is 1-based within the text (one past the end when the text ended too
    early); ``expected`` lists what would have been accepted there.
    """

    def __init__(self, text: str, position: int, expected: list[str], message: str):
        super().__init__(message)
        self.text = text
        self.position = position
        self.expected = expected
        self.message = message

    @property
    def caret(self) -> str:
        """The text and a caret under the failing position, as two lines."""
        return f"{self.text}\n{' ' * (self.position - 1)}^"


class ConfigError(VerdictsError):
    """A configuration file is invalid."""


class OutputPathError(VerdictsError):
    """A file the command was asked to write (``--html``, ``--dot``, ``-o``, ``--out``)
    cannot go where it was asked to: its folder is missing, or the path is a folder."""


class EnvironmentFailure(Exception):
    """The machine around the run failed it, not the input nor the command line: a closed
    standard output, a full disk, a file name that is not UTF-8, a CA certificate file
    that cannot be read.  The message names the thing and the reason; the command line
    writes it as one line on stderr with exit code 4
    (:data:`verdicts.commandline.ENVIRONMENT`).

    Deliberately not a :class:`VerdictsError`: a command that turns its errors into an
    input message (exit 2) lets this one through."""
