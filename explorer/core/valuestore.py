"""Compact value files: each position's value and remoteness in 2 bytes, in compressed chunks read at random.

The one home of the value file format for the tiered solver and the implicit mode
(issue 21, item 4). Three parts:

- **codes** (`pack`, `unpack`): one unsigned integer a position, the layout of the
  compiled solver's cells (explorer.kernels.retrograde): the low 3 bits a code
  (0 loss, 1 draw, 2 tie, 3 win, 6 no position), the remoteness above it. uint16
  holds remoteness up to 8,191; `pack` falls back to uint32 (up to 536,870,911)
  only when a remoteness needs it. `unpack` reads a solved cell array as it is:
  like the kernel's `decode`, a cell still open (code 4, 5 or 7) is a draw. Draws
  and no-position indices unpack with remoteness -1.
- **one file** (`write`): the codes cut into chunks of a fixed number of positions,
  each compressed on its own with numcodecs (Zstd by default, Blosc, or none).
- **a reader** (`open` -> `Store`): `store[i]`, `store[indices]`, `store.chunk(k)`,
  `store.to_array()`; an LRU cache of a few decompressed chunks, bounded in bytes,
  so any index costs at most one chunk read; and, for an uncompressed file,
  `store.as_memmap()`, a read-only memory map (what a tier reads of its children).

One file rather than a folder of chunk files (as zarr keeps): a tier's result is
one atomic rename of one 0600 file (explorer.core.private.atomic_private_file),
one inode and one descriptor per tier (Connect Four has hundreds of tiers), copied
or checked as one thing; and an uncompressed file is one contiguous array that
numpy memory-maps. Chunks solved in parallel do not need files of their own:
workers compress chunks and one writer appends them. numcodecs rather than zarr:
zarr's store is a folder (or a zip, whose members are not aligned for a memory
map), and all we need of it is the codecs.

The file, little-endian throughout::

    b"GGVALUES"                         8 bytes, the magic
    header length                       uint32
    header                              JSON: format, version, dtype, length, chunk, chunks, codec
    (zeros to a multiple of 8)
    offsets                             uint64[chunks + 1], chunk k at offsets[k]:offsets[k+1] of the data
    crc32                               uint32[chunks], of each chunk as stored
    (zeros to a multiple of 64)
    data                                the chunks, one after the other

Every chunk read is checked against its CRC-32 (a flipped bit is an error, not a
wrong value), except single positions read through the memory map. A file that
is truncated, damaged or of another format raises BadValueFile naming the path
and the fault in one line. The codec is rebuilt from the header only when it is
Zstd or Blosc: numcodecs also registers a pickle codec, which a planted file
must never reach.
"""

from __future__ import annotations

import json
import mmap
import os
import stat
import struct
import threading
import weakref
import zlib
from collections import OrderedDict
from pathlib import Path
from typing import NoReturn

import numpy as np

from explorer.core import private, progress
from explorer.core.errors import BadValueFile, GameGraphError, InvalidParameter

# The cell layout of explorer.kernels.retrograde (a lower layer cannot import it; a test checks they agree).
CODE_BITS, CODE_MASK = 3, 7
LOSS, DRAW, TIE, WIN = 0, 1, 2, 3  # explorer.core.values.Value
NO_POSITION = 6  # the code of an index that is no legal position
INVALID = -2     # its value once unpacked (explorer.implicit.INVALID)
CODE_DTYPES = (np.dtype("<u2"), np.dtype("<u4"))

MAGIC = b"GGVALUES"
FORMAT = "gamegraph value file"
VERSION = 1
DEFAULT_CHUNK = 2 ** 20          # positions a chunk: 2 MiB of uint16 decompressed
RANDOM_ACCESS_CHUNK = 1 << 16    # the chunk of files read a position at a time (`show`: 128 KiB decompressed)
DEFAULT_CACHE_BYTES = 64 << 20   # decompressed chunks kept by a Store
CODECS = ("zstd", "blosc", "none")
DEFAULT_LEVEL = {"zstd": 3, "blosc": 5}
LEVELS = {"zstd": range(1, 23), "blosc": range(0, 10)}
MAX_HEADER = 1 << 16
BLOCK = 1 << 22  # positions packed or unpacked at a time, bounding the temporaries


# -- codes ----------------------------------------------------------------------------
def remoteness_limit(dtype) -> int:
    """The largest remoteness a code of this dtype holds (8,191 for uint16)."""
    return int(np.iinfo(dtype).max) >> CODE_BITS


def _decided(value: np.ndarray) -> np.ndarray:
    return (value == LOSS) | (value == TIE) | (value == WIN)


def pack(value, remoteness, dtype=None) -> np.ndarray:
    """The code of each position: int8 values (a Value, or -2 for no position) and their remoteness in one array.

    uint16 unless a remoteness exceeds 8,191, then uint32; `dtype` forces one, and a
    remoteness it cannot hold is a GameGraphError naming it. The remoteness of draws
    and of no-position indices is not stored (it unpacks as -1). O(N), in blocks."""
    value, remoteness = np.asarray(value), np.asarray(remoteness)
    if value.ndim != 1 or value.shape != remoteness.shape:
        raise ValueError(f"pack needs two 1-D arrays of one length, not shapes {value.shape} and {remoteness.shape}")
    deepest = 0
    for start in range(0, len(value), BLOCK):
        v, r = value[start:start + BLOCK], remoteness[start:start + BLOCK]
        unknown = ~((v >= LOSS) & (v <= WIN) | (v == INVALID))
        if unknown.any():
            i = int(np.argmax(unknown))
            raise GameGraphError(f"position {start + i:,} has value {int(v[i])}, "
                                 "not a Value (0-3) or -2 (no position)")
        decided = _decided(v)
        negative = decided & (r < 0)
        if negative.any():
            i = int(np.argmax(negative))
            raise GameGraphError(f"position {start + i:,} is decided (value {int(v[i])}) "
                                 f"but has remoteness {int(r[i])}")
        if decided.any():
            deepest = max(deepest, int(r[decided].max()))
    if dtype is None:
        dtype = CODE_DTYPES[0] if deepest <= remoteness_limit(CODE_DTYPES[0]) else CODE_DTYPES[1]
    dtype = _code_dtype(dtype)
    if deepest > remoteness_limit(dtype):
        raise GameGraphError(f"a remoteness of {deepest:,} does not fit a {dtype.name} code "
                             f"(at most {remoteness_limit(dtype):,})")
    codes = np.empty(len(value), dtype=dtype)
    for start in range(0, len(value), BLOCK):
        v, r = value[start:start + BLOCK], remoteness[start:start + BLOCK]
        code = np.where(v == INVALID, NO_POSITION, v).astype(dtype)
        payload = np.where(_decided(v), r, 0).astype(dtype)
        codes[start:start + BLOCK] = (payload << CODE_BITS) | code
    return codes


def unpack(codes) -> tuple[np.ndarray, np.ndarray]:
    """(value int8, remoteness int16 or int32) of codes of any shape: the inverse of `pack`.

    Draws and no-position indices (value -2) get remoteness -1; a cell the solver left
    open (code 4, 5 or 7) is a draw, as the kernel's `decode` reads it. O(N), in blocks."""
    codes = np.asarray(codes)
    dtype = _code_dtype(codes.dtype)
    signed = np.int16 if dtype.itemsize == 2 else np.int32
    flat = codes.reshape(-1)
    value, remoteness = np.empty(flat.shape, np.int8), np.empty(flat.shape, signed)
    for start in range(0, len(flat), BLOCK):
        c = flat[start:start + BLOCK]
        code = (c & CODE_MASK).astype(np.int8)
        decided = _decided(code)
        value[start:start + BLOCK] = np.where(decided, code, np.where(code == NO_POSITION, INVALID, DRAW))
        remoteness[start:start + BLOCK] = np.where(decided, (c >> CODE_BITS).astype(signed), -1)
    return value.reshape(codes.shape), remoteness.reshape(codes.shape)


SUMMARY_BLOCK = 1 << 22  # positions counted at a time by `summarize`: bounded temporaries


def summarize(codes) -> tuple[tuple[int, ...], int]:
    """(positions of each code 0-7, the deepest remoteness of a win, loss or tie, 0 when none) of finished
    codes (a solved value file's, or a tier's), in blocks of SUMMARY_BLOCK: a memory map is read once, in
    order. O(N)."""
    counts = np.zeros(CODE_MASK + 1, dtype=np.int64)
    deepest = 0
    for start in range(0, len(codes), SUMMARY_BLOCK):
        block = np.asarray(codes[start:start + SUMMARY_BLOCK])
        code = block & CODE_MASK
        counts += np.bincount(code, minlength=CODE_MASK + 1)
        decided = _decided(code)
        if decided.any():
            deepest = max(deepest, int((block[decided] >> CODE_BITS).max()))
    return tuple(int(c) for c in counts), deepest


def _code_dtype(dtype) -> np.dtype:
    dtype = np.dtype(dtype)
    for allowed in CODE_DTYPES:
        if dtype == allowed or dtype == allowed.newbyteorder("="):
            return allowed
    raise ValueError(f"codes are uint16 or uint32, not {dtype}")


# -- the file ---------------------------------------------------------------------------
def _whole(number) -> bool:
    return isinstance(number, int) and not isinstance(number, bool)


def _align(offset: int, to: int) -> int:
    return -(-offset // to) * to


def _layout(header_length: int, chunks: int) -> tuple[int, int]:
    """(index offset, data offset) of a file whose header has `header_length` bytes."""
    index = _align(len(MAGIC) + 4 + header_length, 8)
    return index, _align(index + (chunks + 1) * 8 + chunks * 4, 64)


def _compressor(codec: str, level: int | None):
    """The numcodecs codec named, at `level` (its default when None); None for no compression."""
    if codec not in CODECS:
        raise InvalidParameter(f"unknown codec {codec!r}; choose one of {', '.join(CODECS)}")
    if codec == "none":
        if level is not None:
            raise InvalidParameter("codec 'none' takes no level")
        return None
    level = DEFAULT_LEVEL[codec] if level is None else level
    if not isinstance(level, int) or level not in LEVELS[codec]:
        allowed = LEVELS[codec]
        raise InvalidParameter(f"{codec} level {level!r} is out of range ({allowed.start}-{allowed.stop - 1})")
    from numcodecs import Blosc, Zstd

    if codec == "zstd":
        return Zstd(level=level)
    # Blosc's zstd behind a byte shuffle (low bytes, then high bytes): on Dodgem 4x4, 0.33 bytes a position
    # against 0.37 unshuffled and 0.56 bit-shuffled (bench/bench_valuestore.py measures it).
    return Blosc(cname="zstd", clevel=level, shuffle=Blosc.SHUFFLE)


def write(path, codes, chunk: int = DEFAULT_CHUNK, codec: str = "zstd", level: int | None = None,
          threads: int = 1) -> Path:
    """Write `codes` (uint16 or uint32, from `pack` or a solved cell array) as a value file at `path`.

    Atomic and owner-only (explorer.core.private.atomic_private_file: a partial 0600
    file renamed at the end, its folder made 0700): a reader sees the old file or the
    new one, and a failure leaves nothing. Reads `codes` one chunk at a time, so a
    memory-mapped array is never loaded whole; nor is any object with `dtype`, `ndim`, `len` and slices
    (an old value file packed a chunk at a time: explorer.implicit). O(N).

    With `threads` > 1 the chunks are compressed (and their CRC-32 taken) by that many threads at once,
    numcodecs and zlib letting go of the GIL while they work, at most WRITE_AHEAD chunks a thread ahead
    of the one written; the file is the same bytes whatever the threads (each chunk is compressed alone)."""
    if not all(hasattr(codes, name) for name in ("dtype", "ndim", "__len__", "__getitem__")):
        codes = np.asarray(codes)
    dtype = _code_dtype(codes.dtype)
    if codes.ndim != 1:
        raise ValueError(f"codes are one array of positions, not shape {codes.shape}")
    if not isinstance(chunk, (int, np.integer)) or isinstance(chunk, bool) or chunk < 1:
        raise InvalidParameter(f"the chunk size is a number of positions, at least 1, not {chunk!r}")
    chunk = int(chunk)
    compressor = _compressor(codec, level)
    length = len(codes)
    count = -(-length // chunk)
    header = {"format": FORMAT, "version": VERSION, "dtype": dtype.str, "length": length, "chunk": chunk,
              "chunks": count, "codec": compressor.get_config() if compressor else {"id": "none"},
              "layout": "code in bits 0-2 (0 loss, 1 draw, 2 tie, 3 win, 6 no position), remoteness above"}
    header_bytes = json.dumps(header).encode()
    index_offset, data_offset = _layout(len(header_bytes), count)
    offsets, crcs = np.zeros(count + 1, "<u8"), np.zeros(count, "<u4")
    path = Path(path)
    try:
        with private.atomic_private_file(path) as handle, \
                progress.bar(f"writing {path.name}", total=length) as bar:
            handle.write(MAGIC + struct.pack("<I", len(header_bytes)) + header_bytes)
            handle.seek(data_offset)

            def stored(k: int) -> tuple[object, int, int]:
                """(chunk k as stored, its CRC-32, its positions)."""
                raw = np.ascontiguousarray(codes[k * chunk:(k + 1) * chunk], dtype=dtype)
                data = memoryview(raw).cast("B") if compressor is None else compressor.encode(raw)
                return data, zlib.crc32(data), len(raw)

            for k, (data, crc, rows) in enumerate(_in_order(stored, count, threads)):
                handle.write(data)
                offsets[k + 1] = offsets[k] + len(data)
                crcs[k] = crc
                bar.update(rows)
            handle.seek(index_offset)
            handle.write(offsets.tobytes() + crcs.tobytes())
            handle.truncate(data_offset + int(offsets[-1]))  # with no chunk, the (empty) data still starts there
    except OSError as error:
        raise GameGraphError(f"cannot write the value file {path}: {error.strerror or error}") from None
    return path


WRITE_AHEAD = 4  # chunks a thread may compress ahead of the one `write` writes


def _in_order(work, count: int, threads: int):
    """work(0), work(1), ... work(count - 1), yielded in that order; with threads > 1 computed by a pool of
    that many threads, at most WRITE_AHEAD * threads results ahead of the one yielded (bounded memory)."""
    if threads <= 1 or count <= 1:
        yield from (work(k) for k in range(count))
        return
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="valuestore") as pool:
        pending: deque = deque()
        submitted = 0
        try:
            while submitted < count or pending:
                while submitted < count and len(pending) < WRITE_AHEAD * threads:
                    pending.append(pool.submit(work, submitted))
                    submitted += 1
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()


def open(path, cache_bytes: int = DEFAULT_CACHE_BYTES) -> "Store":  # noqa: A001 - valuestore.open, as io.open
    """The value file at `path`, checked (header, index, size) but not read: see Store."""
    return Store(path, cache_bytes)


class Store:
    """A value file open for reading: the codes by index, a chunk at a time.

    `store[i]` is one code (an int), `store[indices]` (an integer array of any shape, or
    a slice) the codes as an array of that shape; `unpack` turns codes into value and
    remoteness. Each index read costs at most one chunk read and decompression; the
    last chunks read stay decompressed (up to `cache_bytes`, and always the last one).
    Safe to share between threads."""

    def __init__(self, path, cache_bytes: int = DEFAULT_CACHE_BYTES):
        self.path = Path(path)
        self.cache_bytes = cache_bytes
        try:
            self._fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)  # a FIFO must not block
        except OSError as error:
            raise GameGraphError(f"cannot read the value file {self.path}: {error.strerror or error}") from None
        self._closer = weakref.finalize(self, os.close, self._fd)
        try:
            self._read_header()
        except BaseException:
            self.close()
            raise
        self._cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self._cached_bytes = 0
        self._lock = threading.Lock()
        self._mapped = None
        if self.codec == "none" and self.length:  # mapped through the descriptor: the file checked, not a newer one
            self._mapped = np.frombuffer(mmap.mmap(self._fd, 0, access=mmap.ACCESS_READ), self.dtype,
                                         self.length, self._data_offset)

    def _fail(self, what: str) -> NoReturn:
        raise BadValueFile(f"bad value file {self.path}: {what}")

    def _read(self, size: int, offset: int) -> bytes:
        try:
            return os.pread(self._fd, size, offset)
        except OSError as error:
            raise GameGraphError(f"cannot read the value file {self.path}: {error.strerror or error}") from None

    def _read_header(self) -> None:
        info = os.fstat(self._fd)
        if not stat.S_ISREG(info.st_mode):
            raise GameGraphError(f"cannot read the value file {self.path}: it is not a regular file")
        self.file_bytes = size = info.st_size
        start = self._read(len(MAGIC) + 4, 0)
        if not start:
            self._fail("empty (0 bytes)")
        if not start.startswith(MAGIC[:len(start)]):
            self._fail(f"not a gamegraph value file (it does not start with {MAGIC.decode()})")
        if len(start) < len(MAGIC) + 4:
            self._fail(f"truncated: {size:,} bytes, less than its header")
        (header_length,) = struct.unpack("<I", start[len(MAGIC):])
        if header_length > MAX_HEADER:
            self._fail(f"a header of {header_length:,} bytes; a value file's is under {MAX_HEADER:,}")
        text = self._read(header_length, len(start))
        if len(text) < header_length:
            self._fail(f"truncated: {size:,} bytes, less than its header")
        try:
            header = json.loads(text)
        except ValueError:
            self._fail("its header is not JSON")
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            self._fail(f"a foreign header (format {header.get('format') if isinstance(header, dict) else None!r})")
        if header.get("version") != VERSION:
            self._fail(f"format version {header.get('version')!r}; this gamegraph reads version {VERSION}")
        self.header = header
        length, chunk, chunks = header.get("length"), header.get("chunk"), header.get("chunks")
        if not (_whole(length) and _whole(chunk) and _whole(chunks) and length >= 0 and chunk >= 1
                and chunks == -(-length // chunk)):
            self._fail(f"inconsistent sizes in its header (length {length!r}, chunk {chunk!r}, chunks {chunks!r})")
        if header.get("dtype") not in [d.str for d in CODE_DTYPES]:
            self._fail(f"codes of dtype {header.get('dtype')!r}; a value file holds <u2 or <u4")
        self.length, self.chunk_size, self.chunks = length, chunk, chunks
        self.dtype = np.dtype(header["dtype"])
        config = header.get("codec")
        self.codec = config.get("id") if isinstance(config, dict) else None
        if self.codec not in CODECS:
            self._fail(f"codec {self.codec!r}; a value file is compressed with {', '.join(CODECS)}")
        self._decompressor = None
        if self.codec != "none":
            import numcodecs

            try:
                self._decompressor = numcodecs.get_codec(dict(config))
            except Exception as error:  # numcodecs raises whatever the codec's constructor raises
                self._fail(f"codec settings {config!r} are not valid: {error}")
        index_offset, self._data_offset = _layout(header_length, chunks)
        if size < self._data_offset:  # checked before the index is read: a forged header may claim 10^15 chunks
            self._fail(f"truncated: {size:,} bytes, less than its header and index ({self._data_offset:,})")
        index = self._read((chunks + 1) * 8 + chunks * 4, index_offset)
        self._offsets = np.frombuffer(index, "<u8", chunks + 1).astype(np.int64)
        self._crcs = np.frombuffer(index, "<u4", chunks, offset=(chunks + 1) * 8)
        if self._offsets[0] != 0 or (np.diff(self._offsets) < 0).any():
            self._fail("its chunk index is damaged (offsets out of order)")
        expected = self._data_offset + int(self._offsets[-1])
        if size < expected:
            self._fail(f"truncated: {size:,} bytes of {expected:,}")
        if size > expected:
            self._fail(f"{size - expected:,} bytes after its last chunk")
        if self.codec == "none" and int(self._offsets[-1]) != length * self.dtype.itemsize:
            self._fail("its chunk index does not match its length")

    # -- reading ----------------------------------------------------------------------------
    def __len__(self) -> int:
        return self.length

    def _rows(self, k: int) -> int:
        return min(self.chunk_size, self.length - k * self.chunk_size)

    def _read_chunk(self, k: int) -> np.ndarray:
        """Chunk k read, checked and decompressed (not cached). One pread."""
        start, end = int(self._offsets[k]), int(self._offsets[k + 1])
        stored = self._read(end - start, self._data_offset + start)
        if len(stored) != end - start:
            self._fail(f"truncated at chunk {k:,} (the file shrank after it was opened)")
        if zlib.crc32(stored) != int(self._crcs[k]):
            self._fail(f"chunk {k:,} of {self.chunks:,} is damaged (its CRC-32 does not match)")
        raw = stored
        if self._decompressor is not None:
            try:
                raw = self._decompressor.decode(stored)
            except Exception as error:  # what a codec raises on bad input is its own
                self._fail(f"chunk {k:,} does not decompress ({error})")
        codes = np.frombuffer(raw, dtype=np.uint8)
        if codes.nbytes != self._rows(k) * self.dtype.itemsize:
            self._fail(f"chunk {k:,} holds {codes.nbytes:,} bytes, not {self._rows(k) * self.dtype.itemsize:,}")
        codes = codes.view(self.dtype)
        codes.flags.writeable = False
        return codes

    def chunk(self, k: int) -> np.ndarray:
        """The codes of chunk k (positions k*chunk_size onwards), read-only, through the LRU cache."""
        k = int(k)
        if not 0 <= k < self.chunks:
            raise IndexError(f"chunk {k} is out of range: {self.path} has {self.chunks:,} chunks")
        with self._lock:
            if k in self._cache:
                self._cache.move_to_end(k)
                return self._cache[k]
        codes = self._read_chunk(k)
        with self._lock:
            if k not in self._cache:  # another thread may have read it meanwhile
                self._cache[k] = codes
                self._cached_bytes += codes.nbytes
            while self._cached_bytes > self.cache_bytes and len(self._cache) > 1:
                _, dropped = self._cache.popitem(last=False)
                self._cached_bytes -= dropped.nbytes
        return codes

    def __getitem__(self, key):
        if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
            i = int(key) + (self.length if key < 0 else 0)
            if not 0 <= i < self.length:
                raise IndexError(f"index {int(key):,} is out of range for {self.length:,} positions")
            if self._mapped is not None:
                return int(self._mapped[i])
            return int(self.chunk(i // self.chunk_size)[i % self.chunk_size])
        if isinstance(key, slice):
            start, stop, step = key.indices(self.length)
            if step == 1:
                return self._span(start, max(start, stop))
            key = np.arange(start, stop, step)
        indices = np.asarray(key)
        if indices.dtype.kind not in "iu":
            raise TypeError(f"a value file is indexed by integers, not {indices.dtype}")
        flat = indices.reshape(-1).astype(np.int64)
        flat = np.where(flat < 0, flat + self.length, flat)
        outside = (flat < 0) | (flat >= self.length)
        if outside.any():
            bad = int(indices.reshape(-1)[np.argmax(outside)])
            raise IndexError(f"index {bad:,} is out of range for {self.length:,} positions")
        if self._mapped is not None:
            return np.asarray(self._mapped[flat]).reshape(indices.shape)
        out = np.empty(flat.shape, self.dtype)
        chunk_ids = flat // self.chunk_size
        order = np.argsort(chunk_ids, kind="stable")
        sorted_ids = chunk_ids[order]
        starts = np.flatnonzero(np.diff(sorted_ids, prepend=-1))  # each chunk's first place in `order`
        for a, b in zip(starts, [*starts[1:], len(order)]):
            picked, k = order[a:b], int(sorted_ids[a])
            out[picked] = self.chunk(k)[flat[picked] - k * self.chunk_size]
        return out.reshape(indices.shape)

    def _span(self, start: int, stop: int) -> np.ndarray:
        """codes[start:stop] (0 <= start <= stop <= length) as a new array: each chunk it covers read once,
        through the cache, and copied in order (no index array: a slice of a big file is read at the
        speed of decompression)."""
        out = np.empty(stop - start, self.dtype)
        if self._mapped is not None:
            out[:] = self._mapped[start:stop]
            return out
        at = start
        while at < stop:
            k = at // self.chunk_size
            first = k * self.chunk_size
            end = min(stop, first + self._rows(k))
            out[at - start:end - start] = self.chunk(k)[at - first:end - first]
            at = end
        return out

    def to_array(self) -> np.ndarray:
        """Every code, decompressed into one new array (2 or 4 bytes a position); chunks checked, not cached."""
        out = np.empty(self.length, self.dtype)
        with progress.bar(f"reading {self.path.name}", total=self.length) as bar:
            for k in range(self.chunks):
                out[k * self.chunk_size:k * self.chunk_size + self._rows(k)] = self._read_chunk(k)
                bar.update(self._rows(k))
        return out

    def as_memmap(self) -> np.ndarray:
        """The codes memory-mapped read-only, without reading them: only an uncompressed file (codec none)."""
        if self.codec != "none":
            raise GameGraphError(f"the value file {self.path} is compressed ({self.codec}); only one written with "
                                 "codec 'none' can be memory-mapped: read it with to_array() or by index")
        return self._mapped if self._mapped is not None else np.empty(0, self.dtype)

    def close(self) -> None:
        """Close the file (the memory map, if any, lives on while an array of it is in use)."""
        self._mapped = None
        self._closer()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"<valuestore.Store {self.path}: {self.length:,} positions, {self.dtype.name}, "
                f"{self.codec}, {self.chunks:,} chunks of {self.chunk_size:,}>")
