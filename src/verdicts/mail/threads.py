"""Threading mail as mail clients do: Jamie Zawinski's container algorithm
(https://www.jwz.org/doc/threading.html), with its subject step narrowed to one
counterpart and a bounded time.

1. Every message gets a container keyed by its ``Message-ID`` (a second message with an
   id already taken gets a container of its own).  The ids of its ``References`` (or, when
   it has none, its ``In-Reply-To``) get containers too, empty ones for mail that is not
   in the mailbox, and are linked parent to child in the order written, never changing a
   link already made and never making a loop.  The message's own container then hangs
   under the last of them: its own header is more definite than what another message's
   ``References`` implied about it.  (JWZ also unlinks a message that names no parent;
   here it keeps the parent another message gave it, so that the threads do not depend
   on the order mail is read in.)  A ``References`` header is read to its first and last
   ids (:data:`MAX_REFERENCES`), so a hostile one costs no more than a long real one.
2. The containers without a parent are the roots; a root and everything under it is one
   thread.  JWZ's pruning of empty containers (step 4) only reshapes a thread, it never
   moves a message into another one, so it is left out: a message whose parent is an empty
   container keeps that id as the key it was threaded by.
3. JWZ's step 5 joins roots of the same subject.  Generic subjects (``문의드립니다``) are
   the norm in customer mail, so here a root joins an earlier thread only when the subject
   without ``Re:``/``답장:``… prefixes is the same, the two share a counterpart (the sender
   of a received message, a recipient of a sent one) and the root's date is at most
   ``window`` after the thread's latest message.  Different senders are never joined by a
   subject.

Each message is placed with the key and the way it was threaded by (:class:`Placed`),
for the cards' evidence.  The implementation is our own (``docs/decisions.md``): the
Python packages of the algorithm are unmaintained or too new to rely on, and none narrows
the subject step.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Sequence

__all__ = ["Threadable", "Placed", "REFERENCES", "IN_REPLY_TO", "FIRST", "by_subject", "thread"]

REFERENCES, IN_REPLY_TO = "References", "In-Reply-To"
#: how the first message of a thread (a root) was placed
FIRST = "대화의 첫 메일"


def by_subject(days: int) -> str:
    """How a message joined by its subject was placed: ``제목+상대 30일 이내``."""
    return f"제목+상대 {days}일 이내"


@dataclass(frozen=True)
class Threadable:
    """What threading reads of one message: its id, the ids it names, its date, its
    subject (prefixes already stripped) and its counterparts' addresses."""

    message_id: str
    references: tuple[str, ...]
    in_reply_to: str | None
    date: datetime | None
    subject: str
    counterparts: frozenset[str]


@dataclass(frozen=True)
class Placed:
    """Where one message went: its thread id (``TH-`` and eight hex digits of the thread's
    first message's id), the key it was threaded by and how (``References``,
    ``In-Reply-To``, ``제목+상대 N일 이내`` or ``대화의 첫 메일``)."""

    thread_id: str
    key: str
    by: str


@dataclass(eq=False)
class _Container:
    id: str
    item: int | None = None
    parent: _Container | None = None
    children: list[_Container] = field(default_factory=list)
    #: the header whose link put this container under its parent
    link: str | None = None

    def reaches(self, other: _Container) -> bool:
        """Whether ``other`` is this container or one of its ancestors."""
        node: _Container | None = self
        while node is not None:
            if node is other:
                return True
            node = node.parent
        return False

    def hang_under(self, parent: _Container | None, link: str | None) -> None:
        if self.parent is not None:
            self.parent.children.remove(self)
        self.parent, self.link = parent, link
        if parent is not None:
            parent.children.append(self)

    def root(self) -> _Container:
        node = self
        while node.parent is not None:
            node = node.parent
        return node


#: the ids of a ``References`` header read, at most: the first (the thread's start) and
#: the last ones (the nearest parents), as netnews trims the header (RFC 5537, 3.4.4)
MAX_REFERENCES = 100


def _trimmed(references: Sequence[str]) -> list[str]:
    """``references`` as read: a hostile header of thousands of ids costs no more than a
    long real one, and the message still hangs under its nearest parent."""
    if len(references) <= MAX_REFERENCES:
        return list(references)
    return [references[0], *references[len(references) - MAX_REFERENCES + 1:]]


def _link(items: Sequence[Threadable]) -> list[_Container]:
    """Step 1: the container of each item (in order), linked through the id table."""
    table: dict[str, _Container] = {}
    own: list[_Container] = []
    for index, item in enumerate(items):
        container = table.get(item.message_id)
        if container is None:
            container = table[item.message_id] = _Container(item.message_id, index)
        elif container.item is None:
            container.item = index
        else:  # the id is taken: this message is a thread of its own making
            container = _Container(item.message_id, index)
        own.append(container)
        chain = _trimmed(item.references) if item.references else [item.in_reply_to] if item.in_reply_to else []
        how = REFERENCES if item.references else IN_REPLY_TO
        previous: _Container | None = None
        for ref in chain:
            ref_container = table.get(ref)
            if ref_container is None:
                ref_container = table[ref] = _Container(ref)
            # (a container without children cannot be above ``previous``: no walk up for it)
            if (previous is not None and ref_container.parent is None and ref_container not in (container, previous)
                    and not (ref_container.children and previous.reaches(ref_container))):
                ref_container.hang_under(previous, REFERENCES)
            previous = ref_container
        # the message's own references are the most definite word on its parent; one that
        # names none keeps the parent another message's References gave it
        if previous is not None and previous is not container:
            if container.parent is previous:
                container.link = how
            elif not (container.children and previous.reaches(container)):
                container.hang_under(previous, how)
    return own


def thread(items: Sequence[Threadable], window_days: int) -> list[Placed]:
    """Where each of ``items`` goes, in their order, a subject joining messages at most
    ``window_days`` apart.  A thread's id is made from its first message in ``items``
    order, so the caller's order (received mail by date, then sent mail) names the
    threads."""
    window = timedelta(days=window_days)
    own = _link(items)
    roots: dict[int, _Container] = {}
    members: dict[int, list[int]] = {}
    for index, container in enumerate(own):
        root = container.root()
        roots[index] = root
        members.setdefault(id(root), []).append(index)

    # step 5, narrowed: a root joins the latest earlier thread of its subject and counterpart
    group: dict[int, int] = {key: key for key in members}  # root → the thread it joined

    def find(key: int) -> int:
        while group[key] != key:
            key = group[key]
        return key

    def head(indices: list[int]) -> int:
        root = roots[indices[0]]
        if root.item is not None:
            return root.item
        return min(indices, key=lambda i: (items[i].date is None, items[i].date or datetime.min, i))

    joined: dict[int, str] = {}
    heads = {key: head(indices) for key, indices in members.items()}
    last: dict[int, datetime] = {}
    seen: dict[int, set[str]] = {}
    for key, indices in members.items():
        dates = [d for i in indices if (d := items[i].date) is not None]
        if dates:
            last[key] = max(dates)
        seen[key] = set().union(*(items[i].counterparts for i in indices))
    order = sorted((k for k in members if items[heads[k]].date is not None), key=lambda k: (items[heads[k]].date, heads[k]))
    # (subject, address) → the thread that last took mail of that subject and counterpart
    latest: dict[tuple[str, str], int] = {}
    for key in order:
        first = items[heads[key]]
        subject = " ".join(first.subject.split())
        assert first.date is not None
        match: tuple[int, str] | None = None
        for address in sorted(first.counterparts) if subject else ():
            earlier = latest.get((subject, address))
            if earlier is None:
                continue
            target = find(earlier)
            if target in last and first.date - last[target] <= window and (match is None or last[target] > last[match[0]]):
                match = (target, address)
        if match is not None:
            target, address = match
            group[key] = target
            seen[target] |= seen[key]
            if key in last:
                last[target] = max(last[target], last[key])
            joined[heads[key]] = f"{subject} · {address}"
        if subject:
            taker = find(key)
            for address in seen[taker]:
                latest[(subject, address)] = taker

    first_of: dict[int, int] = {}
    for index in range(len(items)):
        first_of.setdefault(find(id(roots[index])), index)
    # a thread is named after its first message's id (its second use of an id, after the id and the use)
    names: list[str] = []
    uses: dict[str, int] = {}
    for item in items:
        uses[item.message_id] = uses.get(item.message_id, 0) + 1
        names.append(item.message_id if uses[item.message_id] == 1 else f"{item.message_id}#{uses[item.message_id]}")
    placed = []
    for index, container in enumerate(own):
        thread_id = "TH-" + hashlib.sha1(names[first_of[find(id(roots[index]))]].encode()).hexdigest()[:8].upper()
        if index in joined:  # (the first message under an empty root too: the subject is why it is here)
            placed.append(Placed(thread_id, joined[index], by_subject(window_days)))
        elif container.parent is not None:
            assert container.link is not None
            placed.append(Placed(thread_id, container.parent.id, container.link))
        else:
            placed.append(Placed(thread_id, items[index].message_id, FIRST))
    return placed
