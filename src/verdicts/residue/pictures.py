"""Opening a component's picture (``result_thumb``) safely, before anything reads it.

A picture that cannot be judged — missing, not an image, not 1920×1080, cut short, or
a decompression bomb — raises :class:`UnreadablePicture` with the reason in Korean;
the domain turns it into an input issue naming the component file and ``result_thumb``,
and judges the other components.  The size is checked from the header, before the
pixels are decoded, so a picture that claims a huge size is never decoded.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from verdicts.errors import InputError
from verdicts.files import read_file
from verdicts.korean import josa

from .model import PICTURE

if TYPE_CHECKING:  # Pillow is imported only when a picture is opened
    from PIL.Image import Image

__all__ = ["UnreadablePicture", "open_picture", "picture_path", "MAX_PICTURE_BYTES"]

#: a picture file larger than this is refused before it is read (a 1920×1080 PNG of
#: 16-bit RGBA is at most about 17 MB)
MAX_PICTURE_BYTES = 64 * 1024 * 1024


class UnreadablePicture(InputError):
    """A picture that cannot be read; the message is the reason (one polite sentence)."""


def picture_path(folder: Path, result_thumb: str) -> Path:
    """Where ``result_thumb`` is: relative to the component file's folder unless absolute."""
    path = Path(result_thumb)
    return path if path.is_absolute() else folder / path


def open_picture(path: Path) -> "Image":
    """The picture at ``path``, decoded as RGB, once it is known to be a whole
    1920×1080 image.

    Raises :class:`UnreadablePicture` with the reason.
    """
    from PIL import Image, UnidentifiedImageError

    width, height = PICTURE
    if not path.exists():
        raise UnreadablePicture(f"그림 파일 {josa(path.name, '이/가')} 없습니다.")
    try:  # a folder, a FIFO or a device is never opened (a FIFO would wait forever)
        data = read_file(path, MAX_PICTURE_BYTES, "그림")
    except InputError as exc:
        raise UnreadablePicture(str(exc)) from None
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(io.BytesIO(data)) as picture:
                if picture.size != PICTURE:
                    size = f"{picture.size[0]}x{picture.size[1]}"
                    raise UnreadablePicture(f"그림 크기는 {width}x{height}이어야 하는데 {size}입니다.")
                picture.load()
                return picture.convert("RGB")
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise UnreadablePicture("그림이 압축을 풀면 지나치게 커지는 크기를 내세워(압축 폭탄) 열지 않았습니다.") from None
        except UnidentifiedImageError:
            raise UnreadablePicture("그림 형식으로 알아볼 수 없는 파일입니다.") from None
        except ValueError:
            # Pillow refuses a chunk that decompresses past its limit (a PNG text bomb)
            raise UnreadablePicture("그림 안에 압축을 풀면 지나치게 커지는 덩이가 있어 열지 않았습니다.") from None
        except OSError as exc:
            if "truncated" in str(exc).lower() or "broken" in str(exc).lower():
                raise UnreadablePicture("그림 파일이 중간에 잘려 끝까지 읽을 수 없습니다.") from None
            raise UnreadablePicture(f"그림 파일을 읽지 못했습니다({type(exc).__name__}).") from None
