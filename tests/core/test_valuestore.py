"""Compact value files (explorer/core/valuestore.py): codes, chunked files, random access, bad files.

Every round trip compares against the array written, for each codec, with chunk
sizes that do and do not divide the length, and the empty and one-position files.
"""

from __future__ import annotations

import json
import mmap
import os
import stat
import struct
import tempfile
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core import valuestore
from explorer.core.errors import BadValueFile, GameGraphError, InvalidParameter

VALUES = np.array([valuestore.INVALID, valuestore.LOSS, valuestore.DRAW, valuestore.TIE, valuestore.WIN], np.int8)


def random_solution(n: int, seed: int, deepest: int = 8191) -> tuple[np.ndarray, np.ndarray]:
    """Values of every kind and remoteness up to `deepest` (-1 for draws and no position, as the solver gives)."""
    rng = np.random.default_rng(seed)
    value = rng.choice(VALUES, n)
    remoteness = rng.integers(0, deepest + 1, n).astype(np.int32)
    remoteness[(value == valuestore.DRAW) | (value == valuestore.INVALID)] = -1
    return value, remoteness


def random_codes(n: int, seed: int) -> np.ndarray:
    return valuestore.pack(*random_solution(n, seed))


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# -- codes ----------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 5000), st.integers(0, 2 ** 32 - 1), st.sampled_from([0, 5, 8191]))
def test_pack_and_unpack_are_inverse(n, seed, deepest):
    value, remoteness = random_solution(n, seed, deepest)
    codes = valuestore.pack(value, remoteness.astype(np.int16))
    assert codes.dtype == np.uint16 and codes.shape == (n,)
    back_value, back_remoteness = valuestore.unpack(codes)
    assert back_value.dtype == np.int8 and back_remoteness.dtype == np.int16
    np.testing.assert_array_equal(back_value, value)
    np.testing.assert_array_equal(back_remoteness, remoteness)


def test_the_layout_is_the_kernel_cell():
    # A code in the low 3 bits, the remoteness above: a win in 5 is 5 << 3 | 3.
    codes = valuestore.pack(np.array([3, 0, 2, 1, -2], np.int8), np.array([5, 0, 7, -1, -1], np.int16))
    assert codes.tolist() == [5 << 3 | 3, 0, 7 << 3 | 2, 1, 6]
    from explorer.kernels import retrograde

    assert (valuestore.CODE_BITS, valuestore.CODE_MASK, valuestore.NO_POSITION) == \
        (retrograde.CODE_BITS, retrograde.CODE_MASK, retrograde.NO_POSITION)
    assert (valuestore.LOSS, valuestore.DRAW, valuestore.TIE, valuestore.WIN, valuestore.INVALID) == \
        (retrograde.LOSS, retrograde.DRAW, retrograde.TIE, retrograde.WIN, retrograde.INVALID)


@pytest.mark.parametrize("dtype", [np.uint16, np.uint32])
def test_unpack_reads_a_solved_cell_array_as_the_kernel_decodes_it(dtype):
    """Cells as the solver leaves them (decided, still open = draw, no position), any payload:
    unpack gives what explorer.kernels.retrograde.decode gives. The kernel never leaves code 1."""
    from explorer.kernels.retrograde import decode

    rng = np.random.default_rng(7)
    cells = rng.integers(0, np.iinfo(dtype).max, 20_000, dtype=dtype, endpoint=True)
    cells = cells[(cells & 7) != valuestore.DRAW]
    value, remoteness = valuestore.unpack(cells)
    expected_value = np.empty(len(cells), np.int8)
    decoded = cells.copy()
    decode(decoded, expected_value)
    np.testing.assert_array_equal(value, expected_value)
    np.testing.assert_array_equal(remoteness, decoded.view(remoteness.dtype))


def test_a_deep_remoteness_falls_back_to_uint32_or_is_refused():
    value, remoteness = np.array([3, 0], np.int8), np.array([8191, 8192], np.int32)
    codes = valuestore.pack(value, remoteness)
    assert codes.dtype == np.uint32
    assert valuestore.unpack(codes)[1].tolist() == [8191, 8192]
    assert valuestore.pack(value[:1], remoteness[:1]).dtype == np.uint16
    with pytest.raises(GameGraphError, match="remoteness of 8,192 does not fit a uint16"):
        valuestore.pack(value, remoteness, dtype=np.uint16)
    with pytest.raises(GameGraphError, match="536,870,912"):
        valuestore.pack(value, np.array([0, 2 ** 29], np.int64))


def test_pack_refuses_what_is_no_value():
    with pytest.raises(GameGraphError, match="position 1 has value 4"):
        valuestore.pack(np.array([0, 4], np.int8), np.array([0, 0], np.int16))
    with pytest.raises(GameGraphError, match="position 1 is decided .value 3. but has remoteness -1"):
        valuestore.pack(np.array([1, 3], np.int8), np.array([-1, -1], np.int16))
    with pytest.raises(ValueError):
        valuestore.pack(np.zeros(3, np.int8), np.zeros(2, np.int16))


# -- files: round trips ------------------------------------------------------------------------
@pytest.mark.parametrize("codec", valuestore.CODECS)
@pytest.mark.parametrize("n, chunk", [(0, 4), (1, 4), (1, 1), (1000, 100), (1000, 333), (1000, 1000), (1000, 4096)])
def test_a_file_reads_back_as_written(tmp_path, codec, n, chunk):
    codes = random_codes(n, seed=n + chunk)
    path = valuestore.write(tmp_path / "tier.values", codes, chunk=chunk, codec=codec)
    with valuestore.open(path) as store:
        assert len(store) == n and store.chunks == -(-n // chunk) and store.codec == codec
        np.testing.assert_array_equal(store.to_array(), codes)
        for k in range(store.chunks):
            np.testing.assert_array_equal(store.chunk(k), codes[k * chunk:(k + 1) * chunk])
        rng = np.random.default_rng(n)
        indices = rng.integers(-n, n, size=(7, 11)) if n else np.zeros((0, 3), np.int64)
        got = store[indices]
        assert got.shape == indices.shape and got.dtype == np.uint16
        np.testing.assert_array_equal(got, codes[indices])
        for i in rng.integers(0, n, 20) if n else []:
            assert store[int(i)] == codes[i] and store[np.int64(i)] == codes[i]
        np.testing.assert_array_equal(store[3:n:7], codes[3:n:7])
        for a, b in ((0, n), (1, n - 1), (chunk - 1, chunk + 1), (n // 3, 2 * n // 3), (5, 2), (-7, None), (0, 10 * n)):
            span = store[a:b]  # a slice of step 1 is read chunk by chunk (Store._span)
            assert span.dtype == codes.dtype and span.flags.writeable
            np.testing.assert_array_equal(span, codes[a:b])
        if n:
            assert store[-1] == codes[-1]
        with pytest.raises(IndexError, match=f"index {n:,} is out of range"):
            store[n]
        with pytest.raises(IndexError):
            store[np.array([0, n])]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 3000), st.integers(1, 700), st.sampled_from(valuestore.CODECS), st.integers(0, 2 ** 32 - 1))
def test_random_files_and_random_reads(n, chunk, codec, seed):
    value, remoteness = random_solution(n, seed)
    with tempfile.TemporaryDirectory() as folder:
        path = valuestore.write(Path(folder) / "values", valuestore.pack(value, remoteness), chunk=chunk, codec=codec)
        store = valuestore.open(path, cache_bytes=chunk * 2 * 3)
        indices = np.random.default_rng(seed).integers(0, max(n, 1), 200) if n else np.zeros(0, np.int64)
        got_value, got_remoteness = valuestore.unpack(store[indices])
        np.testing.assert_array_equal(got_value, value[indices])
        np.testing.assert_array_equal(got_remoteness, remoteness[indices])
        np.testing.assert_array_equal(valuestore.unpack(store.to_array())[0], value)
        store.close()


@pytest.mark.parametrize("codec", valuestore.CODECS)
def test_uint32_codes_round_trip(tmp_path, codec):
    value, remoteness = random_solution(5000, seed=3, deepest=100_000)
    codes = valuestore.pack(value, remoteness)
    assert codes.dtype == np.uint32
    store = valuestore.open(valuestore.write(tmp_path / "v", codes, chunk=512, codec=codec))
    assert store.dtype == np.uint32
    np.testing.assert_array_equal(store.to_array(), codes)
    np.testing.assert_array_equal(valuestore.unpack(store[np.arange(0, 5000, 3)])[1], remoteness[::3])


def test_compression_levels_are_kept_and_checked(tmp_path):
    codes = np.zeros(10_000, np.uint16)
    for codec, level in [("zstd", 1), ("zstd", 19), ("blosc", 0), ("blosc", 9)]:
        store = valuestore.open(valuestore.write(tmp_path / f"{codec}{level}", codes, codec=codec, level=level))
        assert store.header["codec"]["id"] == codec
        assert level in (store.header["codec"].get("level"), store.header["codec"].get("clevel"))
        np.testing.assert_array_equal(store.to_array(), codes)
    assert valuestore.open(tmp_path / "zstd19").file_bytes < 20_000 * 0.05  # zeros compress
    with pytest.raises(InvalidParameter, match="zstd level 30 is out of range"):
        valuestore.write(tmp_path / "x", codes, level=30)
    with pytest.raises(InvalidParameter, match="codec 'none' takes no level"):
        valuestore.write(tmp_path / "x", codes, codec="none", level=3)
    with pytest.raises(InvalidParameter, match="unknown codec 'lzma'"):
        valuestore.write(tmp_path / "x", codes, codec="lzma")
    with pytest.raises(InvalidParameter, match="chunk size"):
        valuestore.write(tmp_path / "x", codes, chunk=0)
    with pytest.raises(ValueError, match="uint16 or uint32"):
        valuestore.write(tmp_path / "x", codes.astype(np.int16))
    assert not (tmp_path / "x").exists()


# -- random access costs O(1) chunk reads ------------------------------------------------------------
def test_each_index_costs_at_most_one_chunk_read_and_the_cache_is_bounded(tmp_path, monkeypatch):
    codes = random_codes(10_000, seed=1)
    store = valuestore.open(valuestore.write(tmp_path / "v", codes, chunk=1000), cache_bytes=3 * 1000 * 2)
    reads = []
    real = store._read_chunk
    monkeypatch.setattr(store, "_read_chunk", lambda k: reads.append(k) or real(k))
    np.testing.assert_array_equal(store[np.array([5, 999, 0, 500])], codes[[5, 999, 0, 500]])
    assert reads == [0]
    assert store[17] == codes[17] and reads == [0]  # cached
    np.testing.assert_array_equal(store[np.array([9999, 1, 4500, 9000])], codes[[9999, 1, 4500, 9000]])
    assert sorted(reads) == [0, 4, 9]  # chunk 0 still cached: each chunk read once
    store[np.arange(0, 10_000, 10)]
    assert len(reads) == 3 + 10 - 1  # every chunk read at most once per call (chunk 9 was cached)
    assert store._cached_bytes <= store.cache_bytes and len(store._cache) == 3


def test_the_cache_keeps_one_chunk_however_small(tmp_path):
    codes = random_codes(3000, seed=2)
    store = valuestore.open(valuestore.write(tmp_path / "v", codes, chunk=1000), cache_bytes=1)
    np.testing.assert_array_equal(store[np.array([2999, 0, 1500])], codes[[2999, 0, 1500]])
    assert len(store._cache) == 1


def test_threads_share_a_store(tmp_path):
    codes = random_codes(50_000, seed=4)
    store = valuestore.open(valuestore.write(tmp_path / "v", codes, chunk=1000), cache_bytes=4 * 2000)
    failures = []

    def reader(seed):
        rng = np.random.default_rng(seed)
        for _ in range(50):
            indices = rng.integers(0, len(codes), 30)
            if not np.array_equal(store[indices], codes[indices]):
                failures.append(seed)

    threads = [threading.Thread(target=reader, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures and store._cached_bytes == sum(c.nbytes for c in store._cache.values())


def test_an_uncompressed_file_is_memory_mapped_read_only(tmp_path):
    codes = random_codes(5000, seed=5)
    store = valuestore.open(valuestore.write(tmp_path / "v", codes, chunk=300, codec="none"))
    mapped = store.as_memmap()
    assert isinstance(mapped.base.obj, mmap.mmap) and not mapped.flags.writeable
    np.testing.assert_array_equal(mapped, codes)
    with pytest.raises(ValueError):
        mapped[0] = 1
    assert valuestore.open(valuestore.write(tmp_path / "e", codes[:0], codec="none")).as_memmap().shape == (0,)
    compressed = valuestore.open(valuestore.write(tmp_path / "z", codes))
    with pytest.raises(GameGraphError, match="is compressed .zstd.; only one written with codec 'none'"):
        compressed.as_memmap()


# -- owner-only, atomic -----------------------------------------------------------------------------
def test_the_file_is_0600_in_a_0700_folder(tmp_path):
    old = os.umask(0)
    try:
        path = valuestore.write(tmp_path / "new" / "tier-3.values", random_codes(100, seed=6))
    finally:
        os.umask(old)
    assert mode(path) == 0o600 and mode(path.parent) == 0o700


def test_a_failed_write_leaves_no_partial_file_and_the_old_file_intact(tmp_path, monkeypatch):
    path = valuestore.write(tmp_path / "v", random_codes(100, seed=8))
    before = path.read_bytes()

    class Broken:
        calls = 0

        @classmethod
        def crc32(cls, data):
            cls.calls += 1
            if cls.calls == 3:
                raise OSError(28, "No space left on device")
            return 0

    monkeypatch.setattr(valuestore, "zlib", Broken)
    with pytest.raises(GameGraphError, match="cannot write the value file .*: No space left on device"):
        valuestore.write(path, random_codes(1000, seed=9), chunk=100)
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v"] and path.read_bytes() == before

    class Interrupted(Broken):
        @classmethod
        def crc32(cls, data):
            raise KeyboardInterrupt

    monkeypatch.setattr(valuestore, "zlib", Interrupted)
    with pytest.raises(KeyboardInterrupt):  # not only our errors: an interrupt leaves nothing either
        valuestore.write(tmp_path / "w", random_codes(1000, seed=9), chunk=100)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v"]


@pytest.mark.parametrize("codec", valuestore.CODECS)
@pytest.mark.parametrize("n, chunk", [(0, 4), (1, 4), (1000, 7), (100_000, 4096)])
def test_chunks_compressed_on_several_threads_make_the_same_file(tmp_path, codec, n, chunk):
    """write(threads=k) compresses the chunks on k threads (implicit.solve: the solve's threads) and writes them in
    order: byte for byte the file one thread writes, read back as written; a chunk's failure on a worker thread
    is the one-line error and leaves no partial file, as on one."""
    codes = random_codes(n, seed=n + chunk)
    files = {threads: valuestore.write(tmp_path / f"{threads}.values", codes, chunk=chunk, codec=codec,
                                       threads=threads).read_bytes() for threads in (1, 2, 3)}
    assert files[1] == files[2] == files[3]
    with valuestore.open(tmp_path / "3.values") as store:
        np.testing.assert_array_equal(store.to_array(), codes)
    if n < 1000:
        return
    seen = set()

    def crc32(data, calls=[0]):  # noqa: B006 - a counter shared by the worker threads
        seen.add(threading.current_thread().name)
        calls[0] += 1
        if calls[0] == 5:
            raise OSError(28, "No space left on device")
        return 0

    class Broken:
        pass

    Broken.crc32 = staticmethod(crc32)
    original = valuestore.zlib
    valuestore.zlib = Broken
    try:
        with pytest.raises(GameGraphError, match="cannot write the value file .*: No space left on device"):
            valuestore.write(tmp_path / "broken.values", codes, chunk=chunk, codec=codec, threads=3)
    finally:
        valuestore.zlib = original
    assert all(name.startswith("valuestore") for name in seen)  # the chunks were done on the pool's threads
    assert not (tmp_path / "broken.values").exists() and len(list(tmp_path.iterdir())) == 3


# -- bad files ---------------------------------------------------------------------------------------
@pytest.fixture
def good(tmp_path) -> tuple[Path, bytes]:
    path = valuestore.write(tmp_path / "good.values", random_codes(5000, seed=10), chunk=1000)
    return path, path.read_bytes()


def one_line(error) -> str:
    message = str(error.value)
    assert "\n" not in message and "good.values" in message
    return message


def header_end(data: bytes) -> int:
    return 12 + struct.unpack("<I", data[8:12])[0]


@pytest.mark.parametrize("keep", [0, 5, 11, 40, "index", "data", "last"])
def test_a_truncated_file_is_refused_on_opening(good, keep):
    path, data = good
    cut = {"index": header_end(data) + 20, "data": len(data) // 2, "last": len(data) - 1}.get(keep, keep)
    path.write_bytes(data[:cut])
    with pytest.raises(BadValueFile) as error:
        valuestore.open(path)
    assert "truncated" in one_line(error) or "empty" in one_line(error)


def test_extra_bytes_are_refused(good):
    path, data = good
    path.write_bytes(data + b"\0")
    with pytest.raises(BadValueFile, match="1 bytes after its last chunk"):
        valuestore.open(path)


def with_header(data: bytes, change) -> bytes:
    """The file with its JSON header changed (the same length, padded with spaces, so the layout holds)."""
    end = header_end(data)
    header = json.loads(data[12:end])
    change(header)
    text = json.dumps(header, separators=(",", ":")).encode()
    assert len(text) <= end - 12
    return data[:12] + text.ljust(end - 12) + data[end:]


@pytest.mark.parametrize("change, message", [
    (lambda h: h.update(format="zarr"), "a foreign header .format 'zarr'."),
    (lambda h: h.update(version=2), "format version 2; this gamegraph reads version 1"),
    (lambda h: h.update(dtype="<i8"), "codes of dtype '<i8'"),
    (lambda h: h.update(length=6001), "inconsistent sizes"),
    (lambda h: h.update(chunk=0), "inconsistent sizes"),
    (lambda h: (h.update(length=10 ** 15, chunk=1, chunks=10 ** 15), h.pop("layout")),
     "truncated: .* less than its header and index"),  # refused before reading an index of 10^15 entries
    (lambda h: h.update(codec={"id": "pickle"}), "codec 'pickle'"),
    (lambda h: h.update(codec={"id": "zstd", "level": "high", "checksum": False, "x": 1}), "codec settings"),
])
def test_a_foreign_or_inconsistent_header_is_refused(good, change, message):
    path, data = good
    path.write_bytes(with_header(data, change))
    with pytest.raises(BadValueFile, match=message) as error:
        valuestore.open(path)
    one_line(error)


def test_other_files_are_refused(good, tmp_path):
    path, data = good
    path.write_bytes(b"\x93NUMPY" + data[6:])
    with pytest.raises(BadValueFile, match="not a gamegraph value file"):
        valuestore.open(path)
    path.write_bytes(data[:12].replace(data[8:12], struct.pack("<I", 1 << 30)) + data[12:])
    with pytest.raises(BadValueFile, match="a header of 1,073,741,824 bytes"):
        valuestore.open(path)
    path.write_bytes(data[:12] + b"!" + data[13:])
    with pytest.raises(BadValueFile, match="its header is not JSON"):
        valuestore.open(path)
    with pytest.raises(GameGraphError, match="cannot read the value file .*missing.*No such file"):
        valuestore.open(tmp_path / "missing")
    with pytest.raises(GameGraphError, match="not a regular file"):
        valuestore.open(tmp_path)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(GameGraphError, match="not a regular file"):  # at once, without blocking
        valuestore.open(tmp_path / "fifo")


def test_a_damaged_index_is_refused(good):
    path, data = good
    index = (header_end(data) + 7) // 8 * 8
    damaged = bytearray(data)
    damaged[index + 8:index + 16] = struct.pack("<Q", 10 ** 9)  # chunk 0 ends far beyond chunk 1
    path.write_bytes(bytes(damaged))
    with pytest.raises(BadValueFile, match="offsets out of order"):
        valuestore.open(path)


@pytest.mark.parametrize("codec", valuestore.CODECS)
def test_a_flipped_bit_in_a_chunk_is_detected_on_reading(tmp_path, codec):
    codes = random_codes(5000, seed=11)
    path = valuestore.write(tmp_path / "good.values", codes, chunk=1000, codec=codec)
    data = bytearray(path.read_bytes())
    data[-10] ^= 0x10  # in the last chunk
    path.write_bytes(bytes(data))
    store = valuestore.open(path)  # the header and index are sound
    np.testing.assert_array_equal(store.chunk(0), codes[:1000])
    with pytest.raises(BadValueFile, match="chunk 4 of 5 is damaged") as error:
        store.to_array()
    one_line(error)
    with pytest.raises(BadValueFile, match="chunk 4 of 5 is damaged"):
        store.chunk(4)
    if codec != "none":  # one position through the memory map is read unchecked
        with pytest.raises(BadValueFile, match="chunk 4 of 5 is damaged"):
            store[4999]


def test_a_chunk_that_decompresses_to_the_wrong_size_is_refused(tmp_path, monkeypatch):
    """A chunk whose CRC matches what was stored but which holds fewer positions (a writer's bug, say)."""
    real = valuestore._compressor("zstd", None)

    class HalfChunks:  # compresses the first half of each chunk only, under the real codec's name
        get_config = real.get_config

        @staticmethod
        def encode(chunk):
            return real.encode(chunk[:len(chunk) // 2])

    monkeypatch.setattr(valuestore, "_compressor", lambda codec, level: HalfChunks)
    path = valuestore.write(tmp_path / "good.values", random_codes(1500, seed=12), chunk=1000)
    store = valuestore.open(path)
    with pytest.raises(BadValueFile, match="chunk 0 holds 1,000 bytes, not 2,000") as error:
        store[3]
    one_line(error)
