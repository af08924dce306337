"""Frame sources and the reconnecting camera, with fake devices and a test clock (no real waits)."""
import logging
import os
import subprocess
import sys
import threading
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import capture
from vision.capture import (
    Camera, CameraStatus, CaptureError, CaptureThread, Frame, ImageFolderSource, LatestFrame,
    PiCameraSource, SyntheticSource, V4L2Source, VideoFileSource, as_bgr, sources_from_config,
)


class FakeClock:
    """Time that moves only when the camera waits; ``on_wait`` lets a test act during a wait."""

    def __init__(self):
        self.now = 50.0
        self.waits: list[float] = []
        self.on_wait = lambda count: None

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float) -> bool:
        self.waits.append(round(seconds, 6))
        self.now += seconds
        self.on_wait(len(self.waits))
        return False


class FakeWebcam:
    """A USB camera at ``path`` (a file standing for the device node) that can be unplugged.

    ``open`` has cv2.VideoCapture's signature; each session numbers its frames from 0 and
    paints that number into pixel (0, 0), so a test can tell sessions and frames apart."""

    def __init__(self, path: Path, size=(64, 48)):
        self.path = path
        self.size = size
        self.plugged = True
        self.sessions = 0
        self.settings: dict[int, float] = {}
        path.touch()

    def unplug(self):
        self.plugged = False
        self.path.unlink()

    def plug(self):
        self.plugged = True
        self.path.touch()

    def open(self, target, api):
        assert api == cv2.CAP_V4L2
        self.sessions += 1
        webcam, session = self, self.sessions

        class Capture:
            frames = 0
            released = False

            def isOpened(self):
                return webcam.plugged

            def set(self, prop, value):
                webcam.settings[prop] = value
                return True

            def read(self):
                if not webcam.plugged or self.released:
                    return False, None
                image = np.zeros((webcam.size[1], webcam.size[0], 3), np.uint8)
                image[0, 0] = (session, self.frames, 0)
                self.frames += 1
                return True, image

            def release(self):
                self.released = True

        self.opened_with = target
        return Capture()


def marks(frame: Frame) -> tuple[int, int]:
    """(session, frame number) painted by FakeWebcam."""
    return int(frame.image[0, 0, 0]), int(frame.image[0, 0, 1])


def webcam_camera(webcam, clock, statuses, **options):
    source = V4L2Source(str(webcam.path), 64, 48, 30.0, capture_factory=webcam.open)
    return Camera([source], clock=clock, wait=clock.wait, on_status=lambda s, d: statuses.append(s),
                  retry_initial_s=0.5, retry_max_s=2.0, **options)


def test_a_camera_whose_device_fails_and_returns_comes_back_by_itself(tmp_path, caplog):
    webcam, clock, statuses = FakeWebcam(tmp_path / "video0"), FakeClock(), []
    camera = webcam_camera(webcam, clock, statuses)
    assert [marks(camera.read()), marks(camera.read())] == [(1, 0), (1, 1)]
    clock.now += 60  # a minute of play
    webcam.unplug()
    clock.on_wait = lambda count: webcam.plug() if count == 4 else None
    frame = camera.read()
    assert marks(frame) == (2, 0)  # a new session on the same device
    assert frame.index == 2  # numbering goes on across the reconnection
    assert clock.waits == [0.5, 1.0, 2.0, 2.0]  # the wait doubles, up to the limit
    assert statuses == [CameraStatus.LIVE, CameraStatus.LOST, CameraStatus.LIVE]
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "no such device" in errors[0]  # said once per outage


def test_a_camera_that_keeps_dropping_out_is_retried_less_and_less_often(tmp_path):
    webcam, clock = FakeWebcam(tmp_path / "video0"), FakeClock()
    source = V4L2Source(str(webcam.path), 64, 48, 30.0, capture_factory=webcam.open)
    camera = Camera([source], clock=clock, wait=clock.wait, retry_initial_s=0.5, retry_max_s=4.0)
    for _ in range(5):  # a loose cable: it opens, gives its first frame, then fails
        assert camera.read() is not None
        source._cap.read = lambda: (False, None)
    assert clock.waits == [0.5, 1.0, 2.0, 4.0]
    clock.now += 10  # the last time, it held for a while before failing
    clock.waits.clear()
    assert camera.read() is not None
    assert clock.waits == []  # a loss after a good while is retried at once


def test_frames_carry_the_clock_time_and_the_source(tmp_path):
    webcam, clock, statuses = FakeWebcam(tmp_path / "video0"), FakeClock(), []
    camera = webcam_camera(webcam, clock, statuses)
    first = camera.read()
    clock.now += 0.25
    second = camera.read()
    assert (first.timestamp, second.timestamp) == (50.0, 50.25)
    assert first.source == f"V4L2 camera {webcam.path}"
    assert first.image.shape == (48, 64, 3) and first.image.dtype == np.uint8
    assert clock.waits == []  # a live camera paces itself


def test_v4l2_asks_for_mjpg_and_the_configured_size_and_rate(tmp_path):
    webcam = FakeWebcam(tmp_path / "video0")
    source = V4L2Source(str(webcam.path), 1280, 720, 25.0, capture_factory=webcam.open)
    source.open()
    assert webcam.settings[cv2.CAP_PROP_FOURCC] == cv2.VideoWriter_fourcc(*"MJPG")
    assert (webcam.settings[cv2.CAP_PROP_FRAME_WIDTH], webcam.settings[cv2.CAP_PROP_FRAME_HEIGHT],
            webcam.settings[cv2.CAP_PROP_FPS]) == (1280, 720, 25.0)
    assert webcam.opened_with == os.path.realpath(webcam.path)
    source.close()
    source.close()


def test_v4l2_by_index_and_through_a_symlink(tmp_path):
    webcam = FakeWebcam(tmp_path / "video3")
    V4L2Source("3", 64, 48, 15, capture_factory=webcam.open).open()
    assert webcam.opened_with == 3
    link = tmp_path / "table-assistant-camera"
    link.symlink_to(webcam.path)
    V4L2Source(str(link), 64, 48, 15, capture_factory=webcam.open).open()
    assert webcam.opened_with == str(webcam.path)


@pytest.mark.parametrize("trouble, problem, fix", [
    ("missing", "no such device", "plug the USB camera in"),
    ("no-access", "permission denied", "usermod -aG video"),
    ("busy", "OpenCV cannot open it", "fuser -v"),
    ("silent", "opens but gives no frame", "v4l2-ctl --list-formats-ext"),
])
def test_each_v4l2_failure_says_what_and_how_to_fix_it(tmp_path, monkeypatch, trouble, problem, fix):
    webcam = FakeWebcam(tmp_path / "video0")

    def opener(target, api):
        cap = webcam.open(target, api)
        if trouble == "silent":
            cap.read = lambda: (False, None)
        return cap
    if trouble == "missing":
        webcam.unplug()
    elif trouble == "no-access":
        monkeypatch.setattr(capture.os, "access", lambda path, mode: False)
    elif trouble == "busy":
        webcam.plugged = False  # the node exists but cannot be opened
    with pytest.raises(CaptureError) as caught:
        V4L2Source(str(webcam.path), 64, 48, 15, capture_factory=opener).open()
    (attempt,) = caught.value.attempts
    assert problem in attempt.problem and fix in attempt.fix
    assert str(webcam.path) in str(caught.value) and "fix:" in str(caught.value)


CSI_CAMERA = {"Model": "imx708", "Id": "/base/soc/i2c0mux/i2c@1/imx708@1a", "Num": 0}
USB_CAMERA = {"Model": "uvcvideo", "Id": "/base/scb/pcie@7d500000/pci@0,0/usb@0,0-1.2:1.0-046d:0825", "Num": 0}


def fake_picamera2(cameras=(CSI_CAMERA,), fail_start=None):
    calls = {}

    class Picamera2:
        def __init__(self, camera_num=0):
            calls["camera_num"] = camera_num

        @staticmethod
        def global_camera_info():
            return list(cameras)

        def create_video_configuration(self, main, controls):
            calls["main"], calls["controls"] = main, controls
            return {"main": main}

        def configure(self, config):
            calls["configured"] = config

        def start(self):
            if fail_start:
                raise RuntimeError(fail_start)

        def capture_array(self, stream):
            # what libcamera's RGB888 gives: bytes in B, G, R order
            image = np.zeros((calls["main"]["size"][1], calls["main"]["size"][0], 3), np.uint8)
            image[..., 0] = 200  # blue
            return image

        def stop(self):
            calls["stopped"] = True

        def close(self):
            calls["closed"] = True

    return types.SimpleNamespace(Picamera2=Picamera2), calls


def test_the_pi_camera_is_imported_only_when_opened_and_gives_bgr():
    module, calls = fake_picamera2()
    imported = []
    source = PiCameraSource(640, 480, 30, importer=lambda name: imported.append(name) or module)
    assert imported == []
    camera = Camera([source], clock=FakeClock())
    frame = camera.read()
    assert imported == ["picamera2"]
    assert calls["main"] == {"size": (640, 480), "format": "RGB888"}
    assert calls["controls"] == {"FrameRate": 30.0}
    assert frame.image.shape == (480, 640, 3) and tuple(frame.image[0, 0]) == (200, 0, 0)  # blue
    camera.close()
    assert calls["stopped"] and calls["closed"]


def test_importing_capture_does_not_import_picamera2():
    code = "import sys, vision.capture; print('picamera2' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "False"


def test_the_pi_camera_source_takes_the_camera_on_the_connector_not_a_usb_one():
    module, calls = fake_picamera2(cameras=({**USB_CAMERA, "Num": 0}, {**CSI_CAMERA, "Num": 1}))
    source = PiCameraSource(640, 480, 30, importer=lambda name: module)
    source.open()
    assert calls["camera_num"] == 1
    source.close()


def test_a_pi_camera_that_fails_to_start_is_released():
    module, calls = fake_picamera2(fail_start="Device or resource busy")
    with pytest.raises(CaptureError):
        PiCameraSource(640, 480, 30, importer=lambda name: module).open()
    assert calls["closed"]


@pytest.mark.parametrize("module, problem, fix", [
    (None, "picamera2 is not installed", "apt install python3-picamera2"),
    (fake_picamera2(cameras=())[0], "no camera detected", "ribbon cable"),
    (fake_picamera2(cameras=(USB_CAMERA,))[0], "no camera detected on the camera connector", "ribbon cable"),
    (fake_picamera2(fail_start="Device or resource busy")[0], "Device or resource busy", "stop any other program"),
])
def test_each_pi_camera_failure_says_what_and_how_to_fix_it(module, problem, fix):
    def importer(name):
        if module is None:
            raise ImportError(f"No module named {name!r}")
        return module
    with pytest.raises(CaptureError) as caught:
        PiCameraSource(640, 480, 30, importer=importer).open()
    (attempt,) = caught.value.attempts
    assert problem in attempt.problem and fix in attempt.fix


def test_when_nothing_works_one_error_lists_every_attempt_and_its_fix(tmp_path):
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    (by_id / "usb-Cam_A-video-index0").symlink_to(tmp_path / "gone")
    config = {"source": "auto", "device": str(tmp_path / "table-assistant-camera"), "width": 640,
              "height": 480, "fps": 15.0, "path": "", "loop": True}
    sources = sources_from_config(config, by_id_dir=by_id)
    sources[0]._import = lambda name: (_ for _ in ()).throw(ImportError(name))
    with pytest.raises(CaptureError) as caught:
        Camera(sources, clock=FakeClock()).open()
    message = str(caught.value)
    assert [a.source for a in caught.value.attempts] == [
        "Raspberry Pi camera (picamera2)",
        f"V4L2 camera {tmp_path / 'table-assistant-camera'}",
        f"V4L2 camera {by_id / 'usb-Cam_A-video-index0'}",
    ]
    assert message.startswith("no camera source works; tried:")
    assert message.count("fix:") == 3 and 'camera.source = "none"' in message
    assert isinstance(caught.value, OSError)  # the command line reports it as a plain message


def test_a_camera_that_never_opens_keeps_trying_and_reports_once(tmp_path):
    clock, statuses = FakeClock(), []
    source = V4L2Source(str(tmp_path / "video9"), 64, 48, 15)
    camera = Camera([source], clock=clock, wait=clock.wait, retry_initial_s=0.5, retry_max_s=10.0,
                    on_status=lambda s, d: statuses.append((s, d)))
    clock.on_wait = lambda count: camera._closed.set() if count == 7 else None
    assert camera.read() is None
    assert clock.waits == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    assert len(statuses) == 1 and statuses[0][0] is CameraStatus.LOST and "no such device" in statuses[0][1]


def write_video(path: Path, count: int) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened(), "this OpenCV build cannot write MJPEG AVI"
    for i in range(count):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()


def test_a_video_file_is_replayed_at_the_configured_rate_and_ends(tmp_path):
    write_video(tmp_path / "table.avi", 3)
    clock, statuses = FakeClock(), []
    camera = Camera([VideoFileSource(str(tmp_path / "table.avi"))], fps=4.0, clock=clock,
                    wait=clock.wait, on_status=lambda s, d: statuses.append(s))
    frames = list(camera.frames())
    assert [round(f.image.mean() / 40) for f in frames] == [0, 1, 2]  # MJPEG is lossy: rounded
    assert [f.timestamp for f in frames] == [50.0, 50.25, 50.5]
    assert clock.waits == [0.25, 0.25]
    assert statuses == [CameraStatus.LIVE, CameraStatus.ENDED]


def test_a_looping_video_starts_again(tmp_path):
    write_video(tmp_path / "table.avi", 2)
    clock = FakeClock()
    camera = Camera([VideoFileSource(str(tmp_path / "table.avi"), loop=True)], clock=clock, wait=clock.wait)
    assert [round(camera.read().image.mean() / 40) for _ in range(5)] == [0, 1, 0, 1, 0]


def test_an_undecodable_video_says_so(tmp_path):
    (tmp_path / "notes.avi").write_text("not a video")
    with pytest.raises(CaptureError, match="cannot decode"):
        VideoFileSource(str(tmp_path / "notes.avi")).open()
    with pytest.raises(CaptureError, match="no such file"):
        VideoFileSource(str(tmp_path / "missing.avi")).open()


def test_an_image_folder_is_read_in_name_order_skipping_unreadable_files(tmp_path, caplog):
    for i, name in enumerate(["b.png", "a.jpg", "c.png"]):
        cv2.imwrite(str(tmp_path / name), np.full((10, 12, 3), 50 * (i + 1), np.uint8))
    (tmp_path / "broken.png").write_bytes(b"not an image")
    (tmp_path / "labels.csv").write_text("filename,label\n")
    gray = np.full((10, 12), 7, np.uint8)
    cv2.imwrite(str(tmp_path / "d.png"), gray)
    clock = FakeClock()
    camera = Camera([ImageFolderSource(str(tmp_path))], clock=clock, wait=clock.wait)
    frames = list(camera.frames())
    assert [int(f.image[0, 0, 0]) for f in frames] == [100, 50, 150, 7]  # a, b, c, d (grey -> BGR)
    assert all(f.image.shape == (10, 12, 3) for f in frames)
    assert any("cannot read broken.png" in r.getMessage() for r in caplog.records)


def test_an_image_folder_without_images_says_what_to_do(tmp_path):
    with pytest.raises(CaptureError, match="holds no images") as caught:
        ImageFolderSource(str(tmp_path)).open()
    assert ".png" in caught.value.attempts[0].fix


def test_the_synthetic_source_draws_frame_n_with_the_given_renderer():
    clock = FakeClock()
    drawn = []

    def render(index):
        drawn.append(index)
        return np.full((20, 30, 4), index, np.uint8)  # BGRA is converted
    camera = Camera([SyntheticSource(render)], fps=10.0, clock=clock, wait=clock.wait)
    frames = [camera.read() for _ in range(3)]
    assert drawn == [0, 1, 2] and [int(f.image[0, 0, 0]) for f in frames] == [0, 1, 2]
    assert frames[0].image.shape == (20, 30, 3) and clock.waits == [0.1, 0.1]


@pytest.mark.parametrize("rotate, shape, corner", [
    (0, (20, 30), (0, 0)), (90, (30, 20), (0, 19)), (180, (20, 30), (19, 29)), (270, (30, 20), (29, 0))])
def test_a_camera_mounted_sideways_or_upside_down_gives_upright_frames(rotate, shape, corner):
    image = np.zeros((20, 30, 3), np.uint8)
    image[0, 0] = 255                                 # the top-left pixel (row, column), turned clockwise
    camera = Camera([SyntheticSource(lambda i: image)], fps=1e6, rotate=rotate)
    turned = camera.read().image
    assert turned.shape[:2] == shape
    assert tuple(np.argwhere(turned[..., 0]).ravel()) == corner


def test_a_rotation_other_than_a_quarter_turn_is_refused():
    with pytest.raises(ValueError, match=r"camera.rotate must be 0, 90, 180 or 270 \(degrees clockwise\), got 45"):
        Camera([SyntheticSource(lambda i: np.zeros((2, 2, 3), np.uint8))], rotate=45)


def test_images_that_are_not_8_bit_are_refused():
    with pytest.raises(CaptureError, match="not an 8-bit image"):
        as_bgr(np.zeros((4, 4, 3), np.float32), "renderer")
    with pytest.raises(CaptureError, match="2 channels"):
        as_bgr(np.zeros((4, 4, 2), np.uint8), "renderer")


def test_latest_frame_hands_over_only_the_newest():
    box = LatestFrame()
    for i in range(3):
        box.put(Frame(np.zeros((1, 1, 3), np.uint8), float(i), i, "test"))
    assert box.get(timeout=0).index == 2 and box.dropped == 2
    assert box.get(timeout=0.01) is None


def test_the_capture_thread_feeds_frames_until_stopped():
    box = LatestFrame()
    got = threading.Event()
    camera = Camera([SyntheticSource(lambda i: np.zeros((8, 8, 3), np.uint8))], fps=200.0)
    thread = CaptureThread(camera, lambda frame: (box.put(frame), got.set())).start()
    assert got.wait(2.0)
    thread.stop()
    assert not thread.thread.is_alive()
    assert box.get(timeout=0) is not None


def test_settings_choose_the_sources(tmp_path):
    base = {"device": "/dev/video0", "width": 640, "height": 480, "fps": 15.0, "path": "", "loop": False}

    def names(cfg):
        return [type(s).__name__ for s in sources_from_config({**base, **cfg}, by_id_dir=tmp_path)]

    assert names({"source": "auto"}) == ["PiCameraSource", "V4L2Source"]
    assert names({"source": "v4l2"}) == ["V4L2Source"]
    assert names({"source": "picamera2"}) == ["PiCameraSource"]
    assert names({"source": "video", "path": "x.mp4"}) == ["VideoFileSource"]
    assert names({"source": "images", "path": "frames"}) == ["ImageFolderSource"]
    assert names({"source": "none"}) == []
    assert [type(s).__name__ for s in sources_from_config(
        {**base, "source": "synthetic"}, render=lambda i: None)] == ["SyntheticSource"]


@pytest.mark.parametrize("changes, message", [
    ({"source": "webcam"}, "camera.source: 'webcam' is not one of"),
    ({"source": "synthetic"}, "needs a scene renderer"),
    ({"source": "video"}, "needs camera.path"),
    ({"width": 0}, "must be positive"),
])
def test_bad_camera_settings_are_refused_naming_the_key(changes, message):
    config = {"source": "auto", "device": "/dev/video0", "width": 640, "height": 480, "fps": 15.0,
              "path": "", "loop": False, **changes}
    with pytest.raises(ValueError, match=message):
        sources_from_config(config)


def test_the_packaged_settings_make_a_camera():
    from assistant import settings
    camera = capture.camera_from_config(settings.load(user_path=Path("/nonexistent")).section("camera"))
    assert [s.name for s in camera.sources][:2] == [
        "Raspberry Pi camera (picamera2)", "V4L2 camera /dev/table-assistant-camera"]


def test_a_failing_frame_callback_does_not_stop_the_camera(caplog):
    seen = []
    enough = threading.Event()

    def on_frame(frame):
        seen.append(frame.index)
        if len(seen) >= 3:
            enough.set()
        raise RuntimeError("reader bug")
    camera = Camera([SyntheticSource(lambda i: np.zeros((8, 8, 3), np.uint8))], fps=500.0)
    with CaptureThread(camera, on_frame):
        assert enough.wait(2.0)
    assert seen[:3] == [0, 1, 2]
    assert any("frame callback failed" in r.getMessage() for r in caplog.records)
