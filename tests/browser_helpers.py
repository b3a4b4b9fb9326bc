"""Headless Chromium for the browser tests (the replay page, cf serve): one way to start
it, with the flags this machine needs (no network, no sandbox as root, a fresh profile)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
)


def chromium(webdriver: Any, *extra: str, prefs: dict[str, Any] | None = None) -> Iterator[Any]:
    """A driver for a fixture to yield: FLAGS plus ``extra`` (and the profile ``prefs``,
    such as ``intl.accept_languages``), the console log kept; quit and its profile
    removed afterwards."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="cf-chromium-")
    for flag in (*FLAGS, *extra, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if prefs:
        options.add_experimental_option("prefs", prefs)
    service = webdriver.ChromeService(executable_path=DRIVER)
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
