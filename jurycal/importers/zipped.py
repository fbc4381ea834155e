"""Reading zip members whatever their compression, zstd included (Inspect ``.eval`` logs).

Inspect AI writes the members of an ``.eval`` log compressed with zstd
(zip method 93) since version 0.3.206; Python's :mod:`zipfile` reads that
method only from 3.14. :func:`read_member` reads such a member's raw bytes
from the archive itself (the local file header at ``ZipInfo.header_offset``,
APPNOTE section 4.3.7) and decompresses them with :mod:`zstandard`; every
other method goes through :mod:`zipfile`. A truncated or corrupt archive
raises :class:`ImportFormatError` naming the file and the member.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

from jurycal.importers.result import ImportFormatError

__all__ = ["ZSTD_METHOD", "read_member"]

#: The zip compression method number of zstd (APPNOTE 4.4.5).
ZSTD_METHOD = 93

_LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")
_LOCAL_SIGNATURE = b"PK\x03\x04"


def read_member(archive: zipfile.ZipFile, name: str, path: Path) -> bytes:
    """The decompressed bytes of member ``name`` of ``archive`` (opened from ``path``).

    Parameters
    ----------
    archive : zipfile.ZipFile
        The open archive.
    name : str
        The member's name.
    path : Path
        The archive's file, named in errors.

    Returns
    -------
    bytes

    Raises
    ------
    ImportFormatError
        When the member is truncated, fails its CRC, or uses a method that
        neither :mod:`zipfile` nor :mod:`zstandard` decodes.

    Examples
    --------
    >>> import io, zipfile, pathlib
    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w") as z:
    ...     z.writestr("header.json", '{"eval": {}}')
    >>> read_member(zipfile.ZipFile(buffer), "header.json", pathlib.Path("log.eval"))
    b'{"eval": {}}'
    """
    info = archive.getinfo(name)
    if info.compress_type == ZSTD_METHOD:
        data = _read_zstd(archive, info, path)
    else:
        try:
            return archive.read(name)
        except NotImplementedError as err:
            raise ImportFormatError(
                f"{path}: member {name!r} uses zip compression method {info.compress_type}, "
                f"which cannot be read here ({err})."
            ) from None
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as err:
            raise ImportFormatError(
                f"{path}: member {name!r} is truncated or corrupt ({err})."
            ) from None
    if zlib.crc32(data) != info.CRC:
        raise ImportFormatError(f"{path}: member {name!r} is corrupt (CRC check failed).")
    return data


def _read_zstd(archive: zipfile.ZipFile, info: zipfile.ZipInfo, path: Path) -> bytes:
    import zstandard

    handle = archive.fp
    if handle is None:
        raise ValueError(f"{path}: the archive is closed.")
    handle.seek(info.header_offset)
    header = handle.read(_LOCAL_HEADER.size)
    if len(header) != _LOCAL_HEADER.size or header[:4] != _LOCAL_SIGNATURE:
        raise ImportFormatError(
            f"{path}: member {info.filename!r} is truncated or corrupt (no local file header)."
        )
    fields = _LOCAL_HEADER.unpack(header)
    name_length, extra_length = fields[9], fields[10]
    handle.seek(info.header_offset + _LOCAL_HEADER.size + name_length + extra_length)
    raw = handle.read(info.compress_size)
    if len(raw) != info.compress_size:
        raise ImportFormatError(f"{path}: member {info.filename!r} is truncated.")
    try:
        return zstandard.ZstdDecompressor().decompress(raw, max_output_size=info.file_size)
    except zstandard.ZstdError as err:
        raise ImportFormatError(
            f"{path}: member {info.filename!r} is corrupt (zstd: {err})."
        ) from None
