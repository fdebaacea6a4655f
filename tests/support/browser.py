"""One Chromium for the whole test run (each xdist worker has its own), started on first use.

The browser test modules take it through their module fixture `browser` (tests/ui/test_browser.py);
each test opens its own page, whose new context shares nothing with another test's. Launching
Playwright and Chromium costs seconds, once per run instead of once per module.
"""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def shared_browser():
    """The run's Chromium (Playwright's sync API); skipped where Chromium or Playwright is missing."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
