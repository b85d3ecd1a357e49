"""The browser tests' own rule for a missing chromium: skipped, naming the package, for a
user who is not root; a failure as root, where ``make test`` installs it."""

from __future__ import annotations

import browser
import pytest


def test_missing_chromium_is_skipped_with_the_package_name_when_not_root(monkeypatch, tmp_path):
    monkeypatch.setattr(browser, "CHROMIUM", tmp_path / "chromium")
    monkeypatch.setattr(browser.os, "geteuid", lambda: 1000)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        browser.require_chromium()


def test_missing_chromium_fails_as_root(monkeypatch, tmp_path):
    monkeypatch.setattr(browser, "CHROMIUM", tmp_path / "chromium")
    monkeypatch.setattr(browser.os, "geteuid", lambda: 0)
    with pytest.raises(pytest.fail.Exception, match="make test"):
        browser.require_chromium()


def test_present_chromium_passes(monkeypatch, tmp_path):
    (tmp_path / "chromium").touch()
    monkeypatch.setattr(browser, "CHROMIUM", tmp_path / "chromium")
    browser.require_chromium()
