"""explorer.core.files: output written whole or not at all, OS errors as one-line GameGraphErrors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from explorer.core.errors import GameGraphError
from explorer.core.files import output_file, output_folder, read_regular_file


def test_a_file_appears_only_when_the_block_completes(tmp_path):
    target = tmp_path / "out.txt"
    with output_file(target) as handle:
        handle.write("first half\n")
        assert not target.exists()  # a reader never sees half a file
        handle.write("second half\n")
    assert target.read_text() == "first half\nsecond half\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_a_failing_block_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with output_file(target, binary=True) as handle:
            handle.write(b"new")
            raise RuntimeError("the writer failed")
    assert target.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


@pytest.mark.parametrize("name, reason", [("missing/out.txt", "No such file or directory"),
                                          ("a-file/out.txt", "Not a directory"),
                                          ("a-folder", "it is a folder, not a regular file")])
def test_os_errors_name_the_path_and_the_reason(tmp_path, name, reason):
    (tmp_path / "a-file").write_text("")
    (tmp_path / "a-folder").mkdir()
    target = tmp_path / name
    with pytest.raises(GameGraphError, match=f"cannot write {target}: {reason}$"):
        with output_file(target) as handle:
            handle.write("text")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "a-folder"]


def make_folder(path):
    """An output folder written with one file in it (explorer.core.files.output_folder)."""
    with output_folder(path) as partial:
        (partial / "file").write_text("x")
    return Path(path)


def test_an_output_folder_refuses_a_file_in_the_way(tmp_path):
    (tmp_path / "taken").write_text("")
    assert make_folder(tmp_path / "new").is_dir()
    with pytest.raises(GameGraphError, match="cannot create the folder .*taken: a file of that name exists"):
        make_folder(tmp_path / "taken")


def _special(tmp_path):
    """A FIFO, a folder, a device (when root may make one) and symlinks to each: never to be replaced."""
    import stat
    made = {"fifo": tmp_path / "fifo", "folder": tmp_path / "folder"}
    os.mkfifo(made["fifo"])
    made["folder"].mkdir()
    if os.geteuid() == 0:  # our own null device in tmp: the real /dev/null is never a test target
        made["device"] = tmp_path / "device"
        os.mknod(made["device"], stat.S_IFCHR | 0o600, os.makedev(1, 3))
    for name in list(made):
        link = tmp_path / f"link-to-{name}"
        link.symlink_to(made[name].name)
        made[f"link-to-{name}"] = link
    return made


def _types(paths):
    return {name: (os.lstat(p).st_mode & 0o170000) for name, p in paths.items()}


def test_outputs_go_only_to_regular_files(tmp_path):
    special = _special(tmp_path)
    before = _types(special)
    for name, path in special.items():
        with pytest.raises(GameGraphError, match=r"cannot write .*: it is (a FIFO|a folder|a device)"):
            with output_file(path) as handle:
                handle.write("data")
    assert _types(special) == before  # nothing replaced, no partial file left
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]


@pytest.mark.parametrize("name", ["", ".", "..", "/", "some/folder/", "out/."])
def test_names_of_folders_are_refused_in_one_line(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(GameGraphError, match="(file name is empty|names a folder)"):
        with output_file(name) as handle:
            handle.write("data")


def test_a_symlink_to_a_regular_file_is_written_through(tmp_path):
    (tmp_path / "real.txt").write_text("old")
    (tmp_path / "link.txt").symlink_to("real.txt")
    with output_file(tmp_path / "link.txt") as handle:
        handle.write("new")
    assert (tmp_path / "link.txt").is_symlink() and (tmp_path / "real.txt").read_text() == "new"


def test_a_long_file_name_still_gets_its_temporary_file(tmp_path):
    target = tmp_path / ("x" * 250 + ".json")
    with output_file(target) as handle:
        handle.write("{}")
    assert target.read_text() == "{}"


def test_reading_refuses_what_is_not_a_small_regular_file(tmp_path):
    special = _special(tmp_path)
    for path in special.values():
        with pytest.raises(GameGraphError, match="not a regular file"):
            read_regular_file(path, 100)  # a FIFO must not block
    big = tmp_path / "big"
    with open(big, "wb") as handle:
        handle.truncate(1 << 30)  # sparse: no disk used
    with pytest.raises(GameGraphError, match="has 1,073,741,824 bytes; the limit is 100"):
        read_regular_file(big, 100)
    (tmp_path / "small").write_bytes(b"abc")
    assert read_regular_file(tmp_path / "small", 100) == b"abc"
    with pytest.raises(GameGraphError, match="No such file"):
        read_regular_file(tmp_path / "missing", 100)


def test_atomic_writes_take_the_mode_they_are_given_less_the_umask(tmp_path):
    """One atomic writer for every file: user outputs get the umask's mode, the state folder's 0600."""
    import stat

    from explorer.core.files import atomic_file, atomic_folder

    previous = os.umask(0o022)
    try:
        with output_file(tmp_path / "user.txt") as handle:
            handle.write("text")
        with atomic_file(tmp_path / "private.bin", 0o600) as handle:
            handle.write(b"data")
        with atomic_folder(tmp_path / "folder", 0o700) as partial:
            (partial / "inside").write_bytes(b"x")
            assert not (tmp_path / "folder").exists()  # a reader never sees half a folder
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "user.txt").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "private.bin").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "folder").stat().st_mode) == 0o700
    assert (tmp_path / "folder" / "inside").read_bytes() == b"x"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "private.bin", "user.txt"]


def test_a_failed_atomic_folder_leaves_the_old_one_and_nothing_else(tmp_path):
    from explorer.core.files import atomic_folder

    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "old").write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_folder(tmp_path / "folder") as partial:
            (partial / "new").write_text("new")
            raise RuntimeError("the writer failed")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]
    assert sorted(p.name for p in (tmp_path / "folder").iterdir()) == ["old"]
    with atomic_folder(tmp_path / "folder") as partial:
        (partial / "new").write_text("new")
    assert sorted(p.name for p in (tmp_path / "folder").iterdir()) == ["new"]  # replaced whole


# -- output folders: new or empty only (issue 19, item 1) ----------------------------------------------
def test_an_output_folder_is_made_or_taken_when_empty(tmp_path):
    assert make_folder(tmp_path / "a").is_dir()
    with pytest.raises(GameGraphError, match="cannot create the folder .*: No such file or directory"):
        make_folder(tmp_path / "missing" / "deep" / "dir")  # as for any output file: no parents made
    assert not (tmp_path / "missing").exists()
    (tmp_path / "empty").mkdir()
    assert make_folder(tmp_path / "empty") == tmp_path / "empty"
    (tmp_path / "empty2").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "empty2")  # a link to an empty folder is an empty folder
    assert make_folder(tmp_path / "link").is_dir()
    assert (tmp_path / "link").is_symlink() and (tmp_path / "empty2" / "file").exists()  # filled through the link


def test_a_non_empty_output_folder_is_refused_and_left_alone(tmp_path):
    folder = tmp_path / "full"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine")
    with pytest.raises(GameGraphError, match="it is not empty .*'keep.txt'.* give a new or empty folder"):
        make_folder(folder)
    assert [p.name for p in folder.iterdir()] == ["keep.txt"]
    with pytest.raises(GameGraphError, match="not empty"):
        make_folder("/")  # refused from its listing: nothing is created there
    with pytest.raises(GameGraphError, match="empty"):
        make_folder("")


# -- issue 40, round two: stale temporary files, modes, read-only targets --------------------------------
def _dead_pid() -> int:
    """A process id no process has now."""
    for pid in range(4_194_000, 4_194_304):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            continue
    pytest.skip("no free process id found")


def test_a_killed_writers_temporary_files_are_removed_by_the_next_write(tmp_path):
    from explorer.core.files import atomic_file, remove_stale_partials
    dead = _dead_pid()
    stale_file = tmp_path / f".out.json.{dead}.1.partial"
    stale_file.write_text("half")
    stale_folder = tmp_path / f".dir.{dead}.2.partial"
    stale_folder.mkdir()
    (stale_folder / "moves.csv").write_text("half")
    live = tmp_path / f".out.json.{os.getpid()}.3.partial"  # a writer still running (this one) is left alone
    live.write_text("busy")
    other = tmp_path / f".other.json.{dead}.1.partial"  # another target's: left to that target's next write
    other.write_text("half")
    mine = tmp_path / "notes.partial"  # not named as gamegraph names them: never touched
    mine.write_text("keep")
    with output_file(tmp_path / "out.json") as handle:
        handle.write("{}")
    assert not stale_file.exists() and live.exists() and other.exists() and mine.exists()
    with output_folder(tmp_path / "dir") as partial:
        (partial / "a").write_text("x")
    assert not stale_folder.exists() and (tmp_path / "dir" / "a").exists()
    with atomic_file(tmp_path / "other.json") as handle:
        handle.write(b"{}")
    assert not other.exists()
    assert remove_stale_partials(tmp_path) == [] and live.exists()


def test_a_replaced_file_keeps_its_mode_and_a_read_only_one_needs_force(tmp_path):
    import stat

    from explorer.core.files import replacing_read_only
    previous = os.umask(0o022)
    try:
        for mode in (0o600, 0o640, 0o604):
            target = tmp_path / f"m{mode:o}"
            target.write_text("old")
            target.chmod(mode)
            with output_file(target) as handle:
                handle.write("new")
            assert stat.S_IMODE(target.stat().st_mode) == mode and target.read_text() == "new"
        real = tmp_path / "real"
        real.write_text("old")
        real.chmod(0o640)
        (tmp_path / "link").symlink_to(real)
        with output_file(tmp_path / "link") as handle:
            handle.write("new")
        assert (tmp_path / "link").is_symlink() and stat.S_IMODE(real.stat().st_mode) == 0o640
        read_only = tmp_path / "read-only"
        read_only.write_text("old")
        read_only.chmod(0o444)
        with pytest.raises(GameGraphError, match=r"read-only \(mode 0444\); give --force to replace it"):
            with output_file(read_only) as handle:
                handle.write("new")
        assert read_only.read_text() == "old"
        with replacing_read_only(True):
            with output_file(read_only) as handle:
                handle.write("new")
        assert read_only.read_text() == "new" and stat.S_IMODE(read_only.stat().st_mode) == 0o444
        read_only.chmod(0o444)
        with pytest.raises(GameGraphError, match="read-only"):  # --force does not outlive its command
            with output_file(read_only) as handle:
                handle.write("again")
        setuid = tmp_path / "setuid"
        setuid.write_text("old")
        setuid.chmod(0o4755)
        with output_file(setuid) as handle:
            handle.write("new")
        assert stat.S_IMODE(setuid.stat().st_mode) == 0o755  # never a set-id file made by replacing one
    finally:
        os.umask(previous)


def test_an_output_folder_appears_whole_or_not_at_all(tmp_path):
    for failure in (RuntimeError("the writer failed"), KeyboardInterrupt(),
                    OSError(28, "No space left on device")):
        with pytest.raises((RuntimeError, KeyboardInterrupt, GameGraphError)) as caught:
            with output_folder(tmp_path / "out") as partial:
                (partial / "moves.csv").write_text("half")
                assert not (tmp_path / "out").exists()
                raise failure
        if isinstance(failure, OSError):
            assert "No space left on device" in str(caught.value) and "\n" not in str(caught.value)
        assert list(tmp_path.iterdir()) == []
