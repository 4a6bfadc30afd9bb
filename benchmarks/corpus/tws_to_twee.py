"""Turn a Twine 1 project file (.tws, a Python pickle) into Twine 1 Twee source.

    python3 benchmarks/corpus/tws_to_twee.py story.tws > story.tw

Used once to bring Twine 1.4 stories kept only as .tws into corpus/twine/ as
text (what Twine 1's own "Export > Twee Source Code" writes: one
":: Title [tags]" header per passage, then its text). The pickle refers to
Twine's own classes; they are read as plain placeholders, never executed.
Embedded images (tag Twine.image) are left out.
"""
import pickle
import sys


class _Placeholder:
    def __init__(self, *args, **kwargs):
        self.state = {}

    def __setstate__(self, state):
        self.state = state


class _Reader(pickle.Unpickler):
    def find_class(self, module, name):
        return _Placeholder


def passages(path):
    with open(path, "rb") as handle:
        project = _Reader(handle).load()
    for widget in project["storyPanel"]["widgets"]:
        passage = widget["passage"].state
        yield passage["title"], list(passage.get("tags") or []), passage["text"]


def main(path):
    out = []
    for title, tags, text in passages(path):
        if "Twine.image" in tags:
            continue
        header = f":: {title}" + (f" [{' '.join(tags)}]" if tags else "")
        out.append(f"{header}\n{text.rstrip()}\n")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
