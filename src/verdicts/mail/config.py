"""The mail domain's configuration: the shared keys (``format``, ``fail_on``,
``[[accept]]``); the mailbox importer's ``time_zone`` (an IANA name) and
``subject_window_days``; and ``[imap]``, the bounds of ``verdicts mail import`` from an
IMAP server.  Each is also an option of the command, which wins over the file.

.. code-block:: toml

    [mail]                 # in verdicts.toml; [tool.verdicts.mail] in pyproject.toml
    time_zone = "Asia/Seoul"   # --time-zone
    subject_window_days = 30   # --subject-window-days

    [mail.imap]            # [tool.verdicts.mail.imap] in pyproject.toml
    timeout = 120          # seconds for the whole import (--imap-timeout)
    max_message_mb = 50    # a larger message is skipped, named (--max-message-mb)
    max_import_mb = 512    # the import stops there, saying so (--max-import-mb)
"""

from __future__ import annotations

from dataclasses import field

from verdicts.config import STRICT, Config as BaseConfig, config_record, limits

from .model import DEFAULT_SUBJECT_WINDOW_DAYS, DEFAULT_TIME_ZONE

__all__ = ["MailConfig", "ImapOptions", "DEADLINE_SECONDS", "MAX_MESSAGE_BYTES", "MAX_RUN_BYTES"]

#: the default overall time of one IMAP import (seconds)
DEADLINE_SECONDS = 120.0
#: the default largest message read (bytes): a mail with attachments of a few tens of MB
MAX_MESSAGE_BYTES = 50 * 1024 * 1024
#: the default most read in one import, every folder together (bytes)
MAX_RUN_BYTES = 512 * 1024 * 1024

_MB = 1024 * 1024


@config_record
class ImapOptions:
    """``[imap]``: how long and how much one IMAP import may read."""

    __pydantic_config__ = STRICT

    timeout: float = field(default=DEADLINE_SECONDS, metadata=limits(ge=0.1))
    max_message_mb: float = field(default=MAX_MESSAGE_BYTES / _MB, metadata=limits(ge=0.001))
    max_import_mb: float = field(default=MAX_RUN_BYTES / _MB, metadata=limits(ge=0.001))


@config_record
class MailConfig(BaseConfig):
    """The mail domain's configuration (see the module's docstring)."""

    time_zone: str = field(default=DEFAULT_TIME_ZONE, metadata=limits(min_length=1))
    subject_window_days: int = field(default=DEFAULT_SUBJECT_WINDOW_DAYS, metadata=limits(ge=0, le=3650))
    imap: ImapOptions = field(default_factory=ImapOptions)

    def __post_init__(self) -> None:
        if self.source is not None and self.time_zone:
            from verdicts.errors import ConfigError, InputError

            from .values import read_zone

            try:
                read_zone(self.time_zone)
            except InputError as exc:
                raise ConfigError(f"{self.source}: 설정이 올바르지 않습니다 — `time_zone`: {exc}") from None
