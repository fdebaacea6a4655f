"""explorer.files: output written whole or not at all, OS errors as one-line GameGraphErrors."""

from __future__ import annotations

import pytest

from explorer.errors import GameGraphError
from explorer.files import make_folder, output_file


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
                                          ("a-folder", "Is a directory")])
def test_os_errors_name_the_path_and_the_reason(tmp_path, name, reason):
    (tmp_path / "a-file").write_text("")
    (tmp_path / "a-folder").mkdir()
    target = tmp_path / name
    with pytest.raises(GameGraphError, match=f"cannot write {target}: {reason}$"):
        with output_file(target) as handle:
            handle.write("text")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "a-folder"]


def test_make_folder_refuses_a_file_in_the_way(tmp_path):
    (tmp_path / "taken").write_text("")
    assert make_folder(tmp_path / "new" / "deeper").is_dir()
    with pytest.raises(GameGraphError, match="cannot create the folder .*taken: a file of that name exists"):
        make_folder(tmp_path / "taken")
