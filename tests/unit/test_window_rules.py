"""Which navigations the desktop window allows (pure rules, no Qt)."""

from __future__ import annotations

from studyhall.desktop.window import navigation_allowed, origin_of

APP = "http://127.0.0.1:5000"


def test_app_origin_is_allowed_everywhere():
    assert navigation_allowed(f"{APP}/", APP, main_frame=True)
    assert navigation_allowed(f"{APP}/chats/1?x=2#y", APP, main_frame=True)
    assert navigation_allowed("about:blank", APP, main_frame=True)


def test_other_origins_are_refused():
    for target in ("http://127.0.0.1:5001/", "https://127.0.0.1:5000/", "http://localhost:5000/",
                   "https://example.com/", "file:///etc/passwd", "data:text/html,hi",
                   "javascript:alert(1)"):
        assert not navigation_allowed(target, APP, main_frame=True), target


def test_inert_frames_inside_the_app_are_allowed():
    assert navigation_allowed("about:srcdoc", APP, main_frame=False)
    assert navigation_allowed("blob:http://127.0.0.1:5000/uuid", APP, main_frame=False)
    assert not navigation_allowed("https://example.com/", APP, main_frame=False)


def test_origin_of_ignores_path_and_case():
    assert origin_of("HTTP://127.0.0.1:5000/x?token=t") == APP
