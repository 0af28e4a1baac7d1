"""The ``simdist`` command line: plain-text help, --version, and the app's own help."""

import pytest

import simdist
from simdist import cli


def test_help_is_plain_text(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert e.value.code == 0 and "simdist app" in out and "``" not in out


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"simdist {simdist.__version__}"


def test_app_help_describes_the_app_and_starts_nothing(capsys, monkeypatch):
    monkeypatch.setattr(cli, "_run_app", lambda args: pytest.fail("started the app"))
    assert cli.main(["app", "--help"]) == 0
    out = capsys.readouterr().out
    for page in ("Gradient sync", "Data sharding", "Loss scaling", "Training timeline",
                 "Scaling explorer", "Parameter servers", "tf.function tracing",
                 "--server.port"):
        assert page in out


class _Exec(Exception):
    pass


def test_the_app_hides_the_deploy_button(monkeypatch):
    def execv(exe, cmd):                 # stop where the real one would replace the process
        raise _Exec(cmd)

    monkeypatch.setattr(cli.os, "execv", execv)
    monkeypatch.setattr(cli.os, "name", "posix")
    with pytest.raises(_Exec) as e:
        cli.main(["app", "--server.port", "9"])
    cmd = e.value.args[0]
    assert cmd[cmd.index("--client.toolbarMode") + 1] == "viewer"
    assert cmd[-2:] == ["--server.port", "9"]
