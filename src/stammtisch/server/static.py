"""The browser client's files from memory: compressed once (gzip) and revalidated cheaply.

Each file is read and compressed when first asked for (and again when it changes on disk; ``packed``
and ``served`` do the same for content made in memory, such as the UI texts); every
answer carries an ``ETag`` and ``Last-Modified``, and a request whose ``If-None-Match`` or
``If-Modified-Since`` still matches gets ``304 Not Modified`` with no body.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
from dataclasses import dataclass
from email.utils import formatdate, parsedate_to_datetime
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

MIN_COMPRESS = 512  # bytes: smaller files are sent as they are


@dataclass(frozen=True)
class StaticFile:
    mtime: float
    size: int
    media_type: str
    etag: str
    plain: bytes
    gzipped: bytes | None


class StaticFiles:
    """The files of one directory (flat: no sub-directories are served)."""

    def __init__(self, directory: Path, headers: dict[str, str]) -> None:
        self.directory = directory
        self.headers = headers
        self._files: dict[str, StaticFile] = {}

    def load(self, name: str) -> StaticFile | None:
        if not name or "/" in name or "\\" in name or name.startswith("."):
            return None
        path = self.directory / name
        try:
            stat = os.stat(path)
        except (OSError, ValueError):  # ValueError: a NUL in the name (issue 26, security 3)
            return None
        cached = self._files.get(name)
        if cached is not None and cached.mtime == stat.st_mtime and cached.size == stat.st_size:
            return cached
        media_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if media_type.startswith("text/") or media_type in ("application/javascript", "image/svg+xml"):
            media_type += "; charset=utf-8"
        found = self._files[name] = packed(path.read_bytes(), media_type, stat.st_mtime, stat.st_size)
        return found

    def response(self, request: Request, name: str, headers: dict[str, str] | None = None,
                 media_type: str | None = None) -> Response:
        found = self.load(name)
        if found is None:
            return Response("not found\n", status_code=404, media_type="text/plain")
        return served(request, found, {**self.headers, **(headers or {})}, media_type)


def packed(plain: bytes, media_type: str, mtime: float, size: int | None = None) -> StaticFile:
    """Content to serve again and again (a file, or texts made once: ``/api/i18n``): compressed and tagged once."""
    gzipped = gzip.compress(plain, 9, mtime=0) if len(plain) >= MIN_COMPRESS else None
    etag = '"' + hashlib.sha256(plain).hexdigest()[:20] + '"'
    return StaticFile(mtime, len(plain) if size is None else size, media_type, etag, plain,
                      gzipped if gzipped and len(gzipped) < len(plain) else None)


def served(request: Request, found: StaticFile, headers: dict[str, str], media_type: str | None = None) -> Response:
    """``found`` compressed when the client takes gzip, or 304 when the client's copy is still ``found``."""
    compressed = found.gzipped is not None and accepts_gzip(request.headers.get("accept-encoding", ""))
    etag = found.etag[:-1] + '-gz"' if compressed else found.etag
    common = {**headers, "etag": etag, "last-modified": formatdate(found.mtime, usegmt=True)}
    if found.gzipped is not None:
        common["vary"] = "Accept-Encoding"
    if not_modified(request, found, etag):
        return Response(status_code=304, headers=common)
    if compressed:
        assert found.gzipped is not None
        common["content-encoding"] = "gzip"
        return Response(found.gzipped, media_type=media_type or found.media_type, headers=common)
    return Response(found.plain, media_type=media_type or found.media_type, headers=common)


def accepts_gzip(header: str) -> bool:
    for part in header.lower().split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def not_modified(request: Request, found: StaticFile, etag: str) -> bool:
    match = request.headers.get("if-none-match")
    if match is not None:  # the stronger validator; If-Modified-Since is then ignored (RFC 9110)
        tags = {t.strip().removeprefix("W/") for t in match.split(",")}
        return "*" in tags or etag in tags or found.etag in tags
    since = request.headers.get("if-modified-since")
    if since:
        try:
            return int(found.mtime) <= parsedate_to_datetime(since).timestamp()
        except (TypeError, ValueError):
            return False
    return False
