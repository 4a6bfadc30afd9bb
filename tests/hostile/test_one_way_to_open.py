"""One way to open a file (issue 32, items 1 and 8): every reader, walked with a FIFO,
the device ``/dev/zero`` in the input's place, a symbolic link to ``/dev/zero`` (which a
pull request can carry) and a file past the size cap.

Each reader is one real command line run in a subprocess (:func:`run_bounded`: bounded
time and memory), so a FIFO that is waited on fails the test by its timeout instead of
blocking it, and ``/dev/zero`` read to the end fails it by the memory bound.  The cap is
made small with its setting, ``VERDICTS_MAX_FILE_BYTES``, rather than by writing
gigabytes.

The last tests keep the list honest: a module of ``src`` that opens a file by another
way than :mod:`verdicts.files` fails :func:`test_no_reader_opens_a_file_another_way`,
and a module that reads through it without a case here fails
:func:`test_every_reading_module_has_a_case`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
import yaml

from tests.hostile.inputs import EXAMPLES, ROOT, SMALL_STORY, UNION_HEADER, assert_clean, run_bounded, story_sheets, xlsx

KINDS = ("fifo", "dev-zero", "link-to-dev-zero", "oversized")
#: the cap set for the "oversized" case, and the size of the file past it (every other
#: file a case needs is smaller than the cap)
CAP = 64 * 1024
OVERSIZED = 96 * 1024
#: what the message says of each kind (besides the file's name)
SAYS = {"fifo": "FIFO", "dev-zero": "문자 장치", "link-to-dev-zero": "/dev/zero", "oversized": "한도"}

EML = (b"From: =?utf-8?b?7ZWc6rWt?= <sender@example.org>\r\nTo: agent@example.org\r\nSubject: hello\r\n"
       b"Message-ID: <m1@example.org>\r\nDate: Mon, 2 Mar 2026 09:00:00 +0900\r\n"
       b"Content-Type: text/plain; charset=utf-8\r\n\r\nbody\r\n")
MBOX = b"From sender@example.org Mon Mar  2 09:00:00 2026\n" + EML.replace(b"\r\n", b"\n") + b"\n"
COMPONENT = {"component_id": "OK", "page_yaml": [{"label": "기획"}], "binding": [], "frame_tree": [], "outside_nodes": [],
             "placeholder_table": ["제목"], "visible_texts": [{"text": "기획"}]}


def place(path: Path, kind: str, content: bytes = b"") -> None:
    """Put the hostile ``kind`` at ``path`` (what was there is replaced)."""
    if path.exists() or path.is_symlink():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":  # the very device of /dev/zero, under the input's own name
        try:
            os.mknod(path, stat.S_IFCHR | 0o644, os.makedev(1, 5))
        except PermissionError:
            pytest.skip("no right to make a device node here (the link case covers /dev/zero)")
    elif kind == "link-to-dev-zero":
        path.symlink_to("/dev/zero")
    else:  # a file of the right kind, padded past the cap with blank lines
        path.write_bytes(content + b"\n" * (OVERSIZED - len(content)))


@dataclass(frozen=True)
class Reader:
    """One reader: ``build(folder)`` writes its good inputs and returns the command line
    and the file whose place the hostile kind takes (with the good content of that file,
    padded for the oversized case); ``codes`` the exit codes that are right."""

    name: str
    build: Callable[[Path], tuple[list, Path, bytes]]
    codes: tuple[int, ...] = (2,)
    #: what the message says instead of :data:`SAYS`, per kind
    says: tuple[tuple[str, str], ...] = ()


def _write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def _union(folder: Path, name: str = "s.csv") -> Path:
    return _write(folder / name, "\n".join([UNION_HEADER, *SMALL_STORY]) + "\n")


def _csv(folder: Path):
    bad = folder / "s.csv"
    return ["storygraph", "lint", bad, "--format", "json"], bad, b""


def _xlsx(folder: Path):
    good = xlsx(folder, story_sheets(), name="s.xlsx")
    return ["storygraph", "lint", good, "--format", "json"], good, good.read_bytes()


def _document(suffix: str):
    def build(folder: Path):
        doc = {"scene_states": [{"scene_id": "S1", "title": "시작", "is_entry": "Y", "is_ending": "Y"}]}
        text = json.dumps(doc, ensure_ascii=False) if suffix == ".json" else yaml.safe_dump(doc, allow_unicode=True)
        path = _write(folder / f"s{suffix}", text)
        return ["storygraph", "lint", path, "--format", "json"], path, path.read_bytes()
    return build


def _folder_table(folder: Path):
    scenario = folder / "scenario"
    shutil.copytree(EXAMPLES / "lighthouse-folder", scenario)
    bad = scenario / "story_branches.csv"
    return ["storygraph", "lint", scenario, "--format", "json"], bad, bad.read_bytes()


def _gold(folder: Path):
    story = _union(folder)
    gold = _write(folder / "gold.csv", "target_no,verdict\nS1,끝까지 닿음\n")
    return ["storygraph", "grade", story, gold], gold, gold.read_bytes()


def _grading(folder: Path):
    story = _union(folder)
    panel = _write(folder / "grading.json", "{}")
    return ["storygraph", "lint", story, "--quiet", "--html", folder / "r.html", "--grading", panel], panel, b"{}"


def _config(folder: Path):
    story = _union(folder)
    config = _write(folder / "storygraph.toml", "[storygraph]\n")
    return ["storygraph", "lint", story, "--config", config], config, config.read_bytes()


def _story(name: str, source: Path | None = None, text: str = ""):
    def build(folder: Path):
        path = _write(folder / name, source.read_bytes() if source else text.encode("utf-8"))
        return ["storygraph", "lint", path, "--format", "json"], path, path.read_bytes()
    return build


def _ink_include(folder: Path):
    main = _write(folder / "main.ink", "INCLUDE part.ink\n시작\n-> END\n")
    part = _write(folder / "part.ink", "== 부두 ==\n-> END\n")
    return ["storygraph", "lint", main, "--format", "json"], part, part.read_bytes()


def _twee_folder(folder: Path):
    chapters = folder / "chapters"
    shutil.copytree(EXAMPLES / "twine-chapters", chapters)
    bad = chapters / "2-lighthouse.twee"
    return ["storygraph", "lint", chapters, "--format", "json"], bad, bad.read_bytes()


def _choicescript(file: str):
    def build(folder: Path):
        game = folder / "game"
        shutil.copytree(EXAMPLES / "choicescript" / "scenes", game)
        bad = game / file
        return ["storygraph", "lint", game, "--format", "json"], bad, bad.read_bytes()
    return build


def _import(folder: Path):
    story = _write(folder / "story.twee", (EXAMPLES / "twine" / "market.twee").read_bytes())
    return ["storygraph", "import", story, "-o", folder / "out.csv"], story, story.read_bytes()


def _robot_round(folder: Path) -> Path:
    round_folder = folder / "round"
    round_folder.mkdir()
    for name in ("evaluation_run", "task_spec", "dataset_index"):
        shutil.copy(EXAMPLES / "robot" / f"{name}.csv", round_folder / f"{name}.csv")
    return round_folder


def _robot(folder: Path):
    round_folder = _robot_round(folder)
    bad = round_folder / "task_spec.csv"
    return ["verdicts", "run", "robot", round_folder, "--format", "json"], bad, bad.read_bytes()


def _robot_config(folder: Path):
    round_folder = _robot_round(folder)
    config = _write(folder / "verdicts.toml", "")
    return ["verdicts", "run", "robot", round_folder, "--config", config], config, b""


def _robot_gold(folder: Path):
    round_folder = _robot_round(folder)
    gold = _write(folder / "gold.csv", "task_id,verdict\npick-bin-A01,배포 후보\n")
    return ["verdicts", "grade", "robot", round_folder, gold], gold, gold.read_bytes()


def _extraction_events(folder: Path):
    batch = folder / "batch"
    batch.mkdir()
    for name in ("field_rules", "source_pages"):
        shutil.copy(EXAMPLES / "extraction" / f"{name}.csv", batch / f"{name}.csv")
    events = _write(batch / "worker_outputs.jsonl", "")
    return ["verdicts", "run", "extraction", batch, "--format", "json"], events, b""


def _residue_component(folder: Path):
    parts = folder / "components"
    _write(parts / "ok.yaml", yaml.safe_dump(COMPONENT, allow_unicode=True))
    bad = _write(parts / "bad.yaml", yaml.safe_dump(COMPONENT | {"component_id": "BAD"}, allow_unicode=True))
    return ["verdicts", "run", "residue", parts, "--format", "json"], bad, bad.read_bytes()


def _residue_picture(folder: Path):
    parts = folder / "components"
    unread = {k: v for k, v in COMPONENT.items() if k != "visible_texts"}  # so the picture is read
    _write(parts / "ok.yaml", yaml.safe_dump(unread | {"result_thumb": "thumb.png"}, allow_unicode=True))
    picture = _write(parts / "thumb.png", (EXAMPLES / "residue" / "pictures" / "DO-0701.png").read_bytes())
    return ["verdicts", "run", "residue", parts, "--format", "json"], picture, picture.read_bytes()


def _mail(kind: str):
    def build(folder: Path):
        out = folder / "out"
        if kind == "eml":
            bad = _write(folder / "one.eml", EML)
            source = bad
        elif kind == "mbox":
            bad = _write(folder / "box.mbox", MBOX)
            source = bad
        elif kind == "eml-folder":
            source = folder / "mails"
            _write(source / "a.eml", EML)
            bad = _write(source / "b.eml", EML.replace(b"<m1@", b"<m2@"))
        else:  # a Maildir's message
            source = folder / "Maildir"
            for sub in ("cur", "new", "tmp"):
                (source / sub).mkdir(parents=True)
            _write(source / "cur" / "1.host:2,S", EML)
            bad = _write(source / "cur" / "2.host:2,S", EML.replace(b"<m1@", b"<m2@"))
        return ["verdicts", "mail", "import", source, "-o", out], bad, bad.read_bytes()
    return build


def _mail_log(folder: Path):
    received = _write(folder / "in.eml", EML)
    sent = _write(folder / "sent.eml", EML.replace(b"<m1@", b"<s1@"))
    log = _write(folder / "agent.jsonl", '{"message_id": "<s1@example.org>", "action_kind": "회신"}\n')
    return ["verdicts", "mail", "import", received, "--sent", sent, "--log", log, "-o", folder / "out"], log, log.read_bytes()


def _mail_policy(folder: Path):
    received = _write(folder / "in.eml", EML)
    policy = _write(folder / "policy.csv", (EXAMPLES / "mail" / "action_policy.csv").read_bytes())
    return ["verdicts", "mail", "import", received, "--policy", policy, "-o", folder / "out"], policy, policy.read_bytes()


def _mail_password(folder: Path):
    secret = _write(folder / "password.txt", "secret\n")
    return (["verdicts", "mail", "import", "imap://agent@127.0.0.1:9/INBOX", "--password-file", secret, "-o",
             folder / "out"], secret, secret.read_bytes())


def _mail_cafile(folder: Path):
    ca = _write(folder / "ca.pem", "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n")
    return (["verdicts", "mail", "import", "imaps://agent@127.0.0.1:9/INBOX", "--cafile", ca, "-o", folder / "out"],
            ca, ca.read_bytes())


_INCLUDED = (("fifo", "일반 파일이 아니라"), ("dev-zero", "일반 파일이 아니라"), ("link-to-dev-zero", "밖에 있어"),
             ("oversized", "너무 커서"))

READERS = [
    Reader("table: CSV", _csv),
    Reader("table: xlsx", _xlsx),
    Reader("table: JSON", _document(".json")),
    Reader("table: YAML", _document(".yaml")),
    Reader("table: a folder's CSV", _folder_table),
    Reader("gold file", _gold),
    Reader("grading JSON for the screen", _grading),
    Reader("configuration (--config)", _config),
    Reader("ink", _story("story.ink", EXAMPLES / "ink" / "lighthouse.ink")),
    Reader("ink INCLUDE", _ink_include, (1,), _INCLUDED),
    Reader("ink JSON", _story("story.ink.json", text='{"inkVersion": 21, "root": [["done", null], "done", null]}')),
    Reader("Twee", _story("story.twee", EXAMPLES / "twine" / "market.twee")),
    Reader("Twine HTML", _story("story.html", text='<tw-storydata name="s" startnode="1"><tw-passagedata pid="1" '
                                                   'name="시작">끝</tw-passagedata></tw-storydata>')),
    Reader("Twee folder", _twee_folder, (1, 2)),
    Reader("Yarn", _story("story.yarn", EXAMPLES / "yarn" / "ferry.yarn")),
    Reader("ChoiceScript startup.txt", _choicescript("startup.txt")),
    Reader("ChoiceScript scene of *scene_list", _choicescript("forest.txt"), (1,)),
    Reader("storygraph import", _import),
    Reader("robot round table", _robot),
    Reader("verdicts --config", _robot_config),
    Reader("robot gold file", _robot_gold),
    Reader("extraction run events (JSONL)", _extraction_events),
    Reader("residue component", _residue_component, (1,)),
    Reader("residue picture", _residue_picture, (1,)),
    Reader("mail: .eml", _mail("eml")),
    Reader("mail: mbox", _mail("mbox")),
    Reader("mail: a folder of .eml", _mail("eml-folder"), (1,)),
    Reader("mail: a Maildir message", _mail("maildir"), (1,)),
    Reader("mail: agent log", _mail_log),
    Reader("mail: --policy", _mail_policy),
    Reader("mail: --password-file", _mail_password),
    Reader("mail: --cafile", _mail_cafile, (4,)),
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.name)
def test_every_reader_refuses_what_is_not_a_regular_file_of_bounded_size(tmp_path, reader, kind):
    command, bad, content = reader.build(tmp_path)
    place(bad, kind, content)
    env = {"VERDICTS_IMAP_PASSWORD": "x"} | ({"VERDICTS_MAX_FILE_BYTES": str(CAP)} if kind == "oversized" else {})
    out = run_bounded(*command, timeout=90, env=env)
    assert_clean(out, reader.codes)
    said = out.stdout + out.stderr
    assert bad.name in said, said[-2000:]
    assert dict(reader.says).get(kind, SAYS[kind]) in said, said[-2000:]


@pytest.mark.parametrize("command", [
    ["storygraph", "lint", "/dev/zero"],
    ["storygraph", "import", "--from", "ink", "/dev/zero"],
    ["storygraph", "import", "--from", "choicescript", "/dev/zero"],
    ["verdicts", "run", "extraction", "/dev/zero"],
    ["verdicts", "mail", "import", "/dev/zero", "-o", "{tmp}/out"],
], ids=lambda c: " ".join(c[:3]))
def test_dev_zero_named_on_the_command_line(tmp_path, command):
    out = run_bounded(*(c.format(tmp=tmp_path) for c in command), timeout=60)
    assert_clean(out, 2)
    assert "/dev/zero" in out.stdout + out.stderr


def test_ink_include_of_dev_zero_itself(tmp_path):
    """The 32-byte story of the issue: ``INCLUDE /dev/zero`` is refused at its line."""
    main = _write(tmp_path / "main.ink", "INCLUDE /dev/zero\n시작\n-> END\n")
    out = run_bounded("storygraph", "lint", main, "--format", "json", timeout=60)
    assert_clean(out, 1)
    issues = json.loads(out.stdout)["issues"]
    assert any(i["line"] == 1 and "/dev/zero" in i["reason"] for i in issues), issues


def test_choicescript_goto_scene_of_a_link_to_dev_zero(tmp_path):
    """ChoiceScript has no INCLUDE: its way to another file is ``*goto_scene`` (and the
    ``*scene_list``); a scene file that links to ``/dev/zero`` is an input issue naming
    it, and no second issue calls it missing."""
    game = tmp_path / "game"
    shutil.copytree(EXAMPLES / "choicescript" / "scenes", game)
    (game / "cabin.txt").unlink()
    (game / "cabin.txt").symlink_to("/dev/zero")
    out = run_bounded("storygraph", "lint", game, "--format", "json", timeout=60)
    assert_clean(out, 1)
    issues = [i for i in json.loads(out.stdout)["issues"] if "cabin" in i["reason"] or "cabin" in (i["file"] or "")]
    assert len(issues) == 1 and "/dev/zero" in issues[0]["reason"] and "문자 장치" in issues[0]["reason"], issues


def test_the_cap_can_be_raised(tmp_path):
    """The setting that lowers the cap raises it too: the same 96 KB story is refused
    under a 64 KB cap and read under a 1 MB one."""
    story = _write(tmp_path / "story.twee", (EXAMPLES / "twine" / "market.twee").read_bytes() + b"\n" * OVERSIZED)
    low = run_bounded("storygraph", "lint", story, "--format", "json", env={"VERDICTS_MAX_FILE_BYTES": str(CAP)})
    assert_clean(low, 2)
    assert f"한도 {CAP:,}바이트" in low.stdout + low.stderr
    high = run_bounded("storygraph", "lint", story, "--format", "json", env={"VERDICTS_MAX_FILE_BYTES": str(1 << 20)})
    assert_clean(high, (0, 1))
    assert json.loads(high.stdout)["cards"]


# --------------------------------------------------------------------------- the list is whole

SRC = ROOT / "src"
#: calls that open or read a file by a path
_OPENS = re.compile(r"(?<![\w.])open\(|\.read_text\(|\.read_bytes\(|\bos\.open\(|\bmailbox\.(?:mbox|Maildir)\(|"
                    r"\bImage\.open\(|\bZipFile\(|\bshutil\.copy\w*\(|\bcreate_default_context\(cafile=|"
                    r"\bload_verify_locations\(|\bsqlite3\.connect\(|\bfileinput\.|\bcodecs\.open\(|\bio\.open\(")
#: the places allowed to open a file another way: module -> (why, the calls allowed
#: there, each a piece of its line) — a new call in the same module is not allowed
ALLOWED: dict[str, tuple[str, tuple[str, ...]]] = {
    "verdicts/files.py": ("the one way itself", ("os.open(path, _FLAGS)",)),
    "verdicts/commandline.py": ("the null device in place of a closed or gone standard stream", ("os.devnull",)),
    "verdicts/outputs.py": ("writing an output file", ('open(path, "wb")', 'open(temporary, "xb")')),
    "verdicts/serve.py": ("the server's own upload and cache files, written by it under its folder",
                          ('open(out, "wb")', "pickle.loads(out.read_bytes())", 'open(self.dir / name, "xb")')),
    "verdicts/rounds.py": ("the rounds database, made by the tool", ("sqlite3.connect(",)),
    "verdicts/extraction/review.py": ("the review queue's database, made by the tool", ("sqlite3.connect(",)),
    "verdicts/schema.py": ("bundled JSON schemas", ("bundled.read_text(",)),
    "verdicts/mail/cli.py": ("writing the policy table", ('open(target, "w"',)),
    "verdicts/mail/importer.py": ("writing the imported tables", ('open(path, "w"',)),
    "storygraph/conditions.py": ("the grammar beside the package in a source tree", ("candidate.read_text(",)),
    "storygraph/importers/ink.py": ("the ink compiler's own package.json, bundled", ("package.read_text(",)),
    "storygraph/importers/common.py": ("writing the union CSV", ('open(out, "w"',)),
}
#: modules that read input files through :mod:`verdicts.files` (directly or through a
#: reader of the kit), and the cases above that walk them
READING_MODULES = {
    "verdicts/tables.py": ["table: CSV", "table: xlsx", "table: JSON", "table: YAML", "table: a folder's CSV",
                           "robot round table", "gold file"],
    "verdicts/config.py": ["configuration (--config)", "verdicts --config"],
    "verdicts/recognise.py": ["table: CSV", "table: JSON"],
    "verdicts/grading.py": ["gold file", "robot gold file"],
    "verdicts/rounds.py": ["robot round table"],
    "verdicts/screen.py": ["grading JSON for the screen"],
    "verdicts/testing.py": [],  # the test kit's case files (tests/verdicts/*/rule_cases.yaml)
    "verdicts/pipeline.py": ["table: CSV"],
    "verdicts/extraction/loading.py": ["extraction run events (JSONL)"],
    "verdicts/residue/loading.py": ["residue component"],
    "verdicts/residue/pictures.py": ["residue picture"],
    "verdicts/residue/evalcard.py": [],  # bundled cards, and `verdicts card measure CARD` (below)
    "verdicts/residue/measure.py": [],
    "verdicts/mail/importer.py": ["mail: .eml", "mail: mbox", "mail: a folder of .eml", "mail: a Maildir message",
                                  "mail: agent log"],
    "verdicts/mail/cli.py": ["mail: --policy", "mail: --password-file"],
    "verdicts/mail/imap.py": ["mail: --cafile"],
    "storygraph/importers/common.py": ["ink", "Twee", "Yarn", "Twee folder", "ChoiceScript startup.txt",
                                       "ChoiceScript scene of *scene_list", "ink JSON", "storygraph import"],
    "storygraph/importers/__init__.py": ["ink JSON", "ChoiceScript startup.txt"],
    "storygraph/importers/twine_html.py": ["Twine HTML"],
    "storygraph/importers/ink.py": ["ink", "ink INCLUDE"],
    "storygraph/reread.py": ["table: CSV"],
    "storygraph/stories.py": ["ink INCLUDE"],
    "storygraph/batch.py": ["table: a folder's CSV"],
}


def _modules() -> dict[str, str]:
    return {p.relative_to(SRC).as_posix(): p.read_text(encoding="utf-8") for p in sorted(SRC.rglob("*.py"))}


def test_no_reader_opens_a_file_another_way():
    strays = []
    for name, text in _modules().items():
        allowed = ALLOWED.get(name, ("", ()))[1]
        for number, line in enumerate(text.splitlines(), 1):
            code = line.split("#", 1)[0]
            if _opens(code) and not any(piece in code for piece in allowed):
                strays.append(f"{name}:{number}: {line.strip()}")
    assert not strays, "a file opened without verdicts.files (read it with read_file/open_file/head, " \
                       "or add the module to ALLOWED with why):\n" + "\n".join(strays)


def _opens(code: str) -> bool:
    """Whether a line of code opens a file by a path (bundled resources and bytes already
    in memory are not files of the user's)."""
    return bool(_OPENS.search(code)) and not any(s in code for s in ("resources.files(", "BytesIO(", "webbrowser"))


def test_the_allowed_list_has_no_stale_entry():
    modules = _modules()
    stale = [f"{name}: {piece}" for name, (_, pieces) in ALLOWED.items() for piece in pieces
             if not any(_opens(line.split("#", 1)[0]) and piece in line for line in modules[name].splitlines())]
    assert not stale, f"ALLOWED names calls that are no longer there: {stale}"


def test_every_reading_module_has_a_case():
    names = {r.name for r in READERS}
    kit = re.compile(r"\bverdicts\.files\b|^\s*from \.+files import", re.M)
    reading = {name for name, text in _modules().items()
               if name != "verdicts/files.py" and (name.startswith("verdicts/") and kit.search(text)
                                                   or "verdicts.files" in text)}
    missing = sorted(reading - set(READING_MODULES))
    assert not missing, f"modules that read input files with no case in READERS: {missing}"
    unknown = sorted(c for cases in READING_MODULES.values() for c in cases if c not in names)
    assert not unknown, unknown


def test_a_card_that_is_no_regular_file_is_refused_in_process(tmp_path):
    """``verdicts card measure CARD`` and the bundled cards read a card file through the
    kit: a FIFO card is refused at once (in a thread, so a wait fails instead of hanging)."""
    import threading

    from verdicts.residue.evalcard import CardFileError, load_card

    os.mkfifo(tmp_path / "card.yaml")
    outcome: list[BaseException | None] = []

    def load() -> None:
        try:
            load_card(tmp_path / "card.yaml")
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - reported below
            outcome.append(exc)

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(10)
    assert outcome, "reading a FIFO card waited"
    assert isinstance(outcome[0], CardFileError) and "FIFO" in str(outcome[0])


@pytest.mark.parametrize("kind", ["fifo", "link-to-dev-zero"])
def test_watch_reads_a_save_that_became_a_fifo_or_a_link_to_dev_zero(tmp_path, kind):
    """``storygraph watch`` lints through the same readers: a scenario replaced by a FIFO
    or by a link to ``/dev/zero`` is said in that round, and the watch goes on."""
    from tests.storygraph.test_watch import Follower

    scenario = _union(tmp_path, "scenario.csv")
    follower = Follower(scenario)
    try:
        assert "처음 검사한 결과입니다." in follower.round(timeout=60)
        swap = tmp_path / "swap"
        place(swap, kind)
        os.replace(swap, scenario)
        said = follower.round(timeout=60)
        assert "scenario.csv" in said and SAYS[kind if kind == "fifo" else "dev-zero"] in said, said
        assert follower.stop() == 0
    finally:
        if follower.proc.poll() is None:
            follower.proc.kill()


def test_the_sweep_over_the_new_readers(tmp_path):
    """The hostile sweep (:mod:`tests.hostile.sweep`) with the files of the story and mail
    readers (a FIFO, ``/dev/zero`` included or linked) through lint, import and mail
    import: no hang, no traceback, a bounded memory, exit 0, 1 or 2."""
    from tests.hostile.builders import READER_BUILDERS
    from tests.hostile.sweep import sweep

    entries = ("lint json", "lint text", "import", "verdicts mail import")
    runs = sweep(tmp_path, names=list(READER_BUILDERS), entry_names=entries, server=False)
    assert len(runs) == len(READER_BUILDERS) * len(entries)
    bad = [f"{r.file} / {r.entry}: {'; '.join(r.problems)}" for r in runs if r.problems]
    assert not bad, "\n".join(bad)
