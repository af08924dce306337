"""Frame sources behind one interface, and a camera that keeps coming back when unplugged.

Sources: a V4L2 camera through OpenCV, the Raspberry Pi camera through picamera2 (imported only
when that source is opened), a video file, a folder of images, and a synthetic table (any
callable that draws frame number N). Every source gives BGR ``uint8`` images.

``Camera`` opens the first source that works and, when it fails, tries them all again with a
growing wait; when none works it raises (or reports) one ``CaptureError`` listing what was tried
and how to fix each. ``CaptureThread`` runs a camera in the background and hands frames to a
callback, e.g. ``LatestFrame.put`` so that a slower reader always gets the newest frame.
"""
from __future__ import annotations

import importlib
import logging
import os
import threading
import time
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import cv2
import numpy as np

log = logging.getLogger(__name__)

SOURCES = ("auto", "v4l2", "picamera2", "video", "images", "synthetic", "none")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")
V4L_BY_ID = Path("/dev/v4l/by-id")
GROUP_FIX = "sudo usermod -aG video $USER, then log out and in again"
PLUG_IN_FIX = (f"plug the USB camera in; `ls {V4L_BY_ID}` lists the cameras (the udev rule that "
               "systemd/install.sh installs names the first one /dev/table-assistant-camera), "
               "or set camera.device")


@dataclass(frozen=True)
class Frame:
    image: np.ndarray  # BGR, uint8, height x width x 3
    timestamp: float  # the camera's clock (time.monotonic by default) when the frame arrived
    index: int  # 0, 1, 2... for the life of the Camera, across reconnections
    source: str  # which source gave it, e.g. "V4L2 camera /dev/video0"


@dataclass(frozen=True)
class Attempt:
    source: str
    problem: str
    fix: str


class CaptureError(OSError):
    """No frames could be had: every attempt, with its problem and its fix, is in ``attempts``."""

    def __init__(self, attempts: Sequence[Attempt]):
        self.attempts = tuple(attempts)
        if len(self.attempts) == 1:
            only = self.attempts[0]
            lines = [f"{only.source}: {only.problem}"] + ([f"  fix: {only.fix}"] if only.fix else [])
        else:
            lines = ["no camera source works; tried:"]
            for attempt in self.attempts:
                lines.append(f"  - {attempt.source}: {attempt.problem}")
                lines += [f"    fix: {attempt.fix}"] if attempt.fix else []
            lines.append('without a camera every reading can be entered by touch; camera.source = "none" '
                         "turns the camera off")
        super().__init__("\n".join(lines))

    @classmethod
    def one(cls, source: str, problem: str, fix: str = "") -> "CaptureError":
        return cls([Attempt(source, problem, fix)])


class FrameSource:
    """One way of getting frames. ``grab`` returns None when a recording has ended."""

    name = "source"
    live = True  # a live device paces itself; recordings and synthetic frames are paced by Camera

    def open(self) -> None:
        """Get ready to grab; CaptureError with the problem and its fix."""

    def grab(self) -> np.ndarray | None:
        raise NotImplementedError

    def close(self) -> None:
        """Release the device; closing twice is harmless."""

    def fail(self, problem: str, fix: str = "") -> CaptureError:
        return CaptureError.one(self.name, problem, fix)


class V4L2Source(FrameSource):
    """A USB (UVC) camera or any V4L2 device, through OpenCV."""

    def __init__(self, device: str, width: int, height: int, fps: float,
                 capture_factory: Callable[..., Any] = cv2.VideoCapture):
        self.device = device
        self.name = f"V4L2 camera {device}"
        self._size = (width, height)
        self._fps = fps
        self._factory = capture_factory
        self._cap = None
        self._first: np.ndarray | None = None

    def open(self) -> None:
        target: str | int
        if self.device.isdigit():
            target = int(self.device)
        else:
            if not os.path.exists(self.device):
                raise self.fail("no such device", PLUG_IN_FIX)
            if not os.access(self.device, os.R_OK | os.W_OK):
                raise self.fail("permission denied", GROUP_FIX)
            target = os.path.realpath(self.device)  # OpenCV wants the /dev/videoN node itself
        cap = self._factory(target, cv2.CAP_V4L2)
        if not cap.isOpened():
            cap.release()
            raise self.fail("OpenCV cannot open it (busy, or not a capture device)",
                            f"close any other program using it (`fuser -v {self.device}`), "
                            "or choose another device in camera.device")
        # MJPG lets USB 2 cameras deliver 720p and above at full frame rate
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self._size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self._size[1])
        cap.set(cv2.CAP_PROP_FPS, self._fps)
        ok, image = cap.read()
        if not ok or image is None:
            cap.release()
            raise self.fail("it opens but gives no frame",
                            "unplug and plug the camera back in; try `v4l2-ctl --list-formats-ext "
                            f"-d {self.device}` for the sizes it supports")
        got = (image.shape[1], image.shape[0])
        if got != self._size:
            log.info("%s gives %dx%d frames (asked for %dx%d)", self.name, *got, *self._size)
        self._cap, self._first = cap, image

    def grab(self) -> np.ndarray:
        if self._cap is None:
            raise self.fail("not open")
        if self._first is not None:
            image, self._first = self._first, None
            return image
        ok, image = self._cap.read()
        if not ok or image is None:
            raise self.fail("stopped giving frames (unplugged?)", PLUG_IN_FIX)
        return image

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class PiCameraSource(FrameSource):
    """The Raspberry Pi camera (CSI) through picamera2, which is imported only here, in ``open``."""

    name = "Raspberry Pi camera (picamera2)"

    def __init__(self, width: int, height: int, fps: float,
                 importer: Callable[[str], Any] = importlib.import_module):
        self._size = (width, height)
        self._fps = fps
        self._import = importer
        self._camera = None

    def open(self) -> None:
        try:
            picamera2 = self._import("picamera2")
        except ImportError:
            raise self.fail("picamera2 is not installed",
                            "sudo apt install python3-picamera2, and make the app's venv with "
                            "--system-site-packages (systemd/install.sh does both)") from None
        # libcamera also lists USB cameras, which the V4L2 source handles better
        connected = [c for c in picamera2.Picamera2.global_camera_info()
                     if "usb" not in str(c.get("Id", "")).lower()]
        if not connected:
            raise self.fail("no camera detected on the camera connector",
                            "check the ribbon cable (contacts facing the right way), reboot, and "
                            "see that `rpicam-hello --list-cameras` lists it")
        camera = None
        try:
            camera = picamera2.Picamera2(connected[0].get("Num", 0))
            # libcamera's "RGB888" is stored B, G, R: the byte order OpenCV calls BGR
            config = camera.create_video_configuration(
                main={"size": self._size, "format": "RGB888"},
                controls={"FrameRate": float(self._fps)},
            )
            camera.configure(config)
            camera.start()
        except Exception as exc:  # libcamera reports busy or broken cameras as RuntimeError and more
            if camera is not None:
                camera.close()  # or it keeps holding the camera
            raise self.fail(f"cannot start it: {exc}",
                            "stop any other program using the camera (only one may hold it)") from None
        self._camera = camera

    def grab(self) -> np.ndarray:
        if self._camera is None:
            raise self.fail("not open")
        try:
            return self._camera.capture_array("main")
        except Exception as exc:
            raise self.fail(f"stopped giving frames: {exc}", "check the ribbon cable") from None

    def close(self) -> None:
        if self._camera is not None:
            camera, self._camera = self._camera, None
            try:
                camera.stop()
            finally:
                camera.close()


class VideoFileSource(FrameSource):
    """A recorded video, replayed at the camera's frame rate."""

    live = False

    def __init__(self, path: str, loop: bool = False):
        self.path = path
        self.name = f"video file {path}"
        self._loop = loop
        self._cap = None

    def open(self) -> None:
        if not os.path.isfile(self.path):
            raise self.fail("no such file", "set camera.path to an existing video file")
        cap = cv2.VideoCapture(self.path)
        if not cap.isOpened():
            raise self.fail("OpenCV cannot decode it", "convert it to MP4 (H.264) or MJPEG AVI")
        self._cap = cap

    def grab(self) -> np.ndarray | None:
        if self._cap is None:
            raise self.fail("not open")
        ok, image = self._cap.read()
        if not ok and self._loop:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, image = self._cap.read()
        return image if ok else None

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ImageFolderSource(FrameSource):
    """The images of a folder in name order, one per frame; unreadable files are skipped."""

    live = False

    def __init__(self, folder: str, loop: bool = False):
        self.folder = folder
        self.name = f"image folder {folder}"
        self._loop = loop
        self._files: list[Path] = []
        self._next = 0

    def open(self) -> None:
        folder = Path(self.folder)
        if not folder.is_dir():
            raise self.fail("no such folder", "set camera.path to a folder of images")
        self._files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise self.fail("holds no images", f"put {', '.join(IMAGE_SUFFIXES)} files in it")
        self._next = 0

    def grab(self) -> np.ndarray | None:
        for _ in range(len(self._files)):
            if self._next >= len(self._files):
                if not self._loop:
                    return None
                self._next = 0
            path = self._files[self._next]
            self._next += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is not None:
                return image
            log.warning("%s: cannot read %s as an image; skipped", self.name, path.name)
        raise self.fail("none of its images can be read", "check the files are PNG or JPEG")


class SyntheticSource(FrameSource):
    """Frames drawn by ``render(index)`` (a synthetic table renderer), paced at the frame rate."""

    live = False

    def __init__(self, render: Callable[[int], np.ndarray], name: str = "synthetic table"):
        self.name = name
        self._render = render
        self._index = 0

    def grab(self) -> np.ndarray:
        image = self._render(self._index)
        self._index += 1
        return image


def as_bgr(image: np.ndarray, source: str) -> np.ndarray:
    """``image`` as BGR uint8 with 3 channels (grey and BGRA are converted)."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim not in (2, 3):
        raise CaptureError.one(source, f"gave {type(image).__name__} "
                               f"{getattr(image, 'shape', '')}, not an 8-bit image")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] != 3:
        raise CaptureError.one(source, f"gave an image with {image.shape[2]} channels")
    return image


# camera.rotate, in degrees clockwise: OpenCV's turn
_TURNS = {0: None, 90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}


class CameraStatus(str, Enum):
    LIVE = "live"  # frames are coming
    LOST = "lost"  # no source works at the moment; retrying
    ENDED = "ended"  # a recording without loop reached its end


class Camera:
    """Frames from the first of ``sources`` that opens, reconnecting with backoff when it fails,
    turned ``rotate`` degrees clockwise (a camera mounted sideways or upside down).

    ``clock`` stamps frames; ``wait(seconds)`` pauses (returning True if the camera was closed
    meanwhile) and defaults to an interruptible wait, so tests can pass fakes for both.
    """

    def __init__(
        self,
        sources: Sequence[FrameSource],
        *,
        fps: float = 15.0,
        rotate: int = 0,
        retry_initial_s: float = 0.5,
        retry_max_s: float = 10.0,
        on_status: Callable[[CameraStatus, str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        wait: Callable[[float], bool] | None = None,
    ):
        if not sources:
            raise ValueError("a camera needs at least one frame source")
        if fps <= 0:
            raise ValueError(f"camera.fps must be more than 0, got {fps}")
        if rotate not in _TURNS:
            raise ValueError(f"camera.rotate must be 0, 90, 180 or 270 (degrees clockwise), got {rotate}")
        self.rotate = rotate
        self.sources = tuple(sources)
        self.active: FrameSource | None = None
        self._period = 1.0 / fps
        self._retry = (retry_initial_s, retry_max_s)
        self._on_status = on_status or (lambda status, detail: None)
        self._clock = clock
        self._closed = threading.Event()
        self._wait = wait or self._closed.wait
        self._lock = threading.Lock()  # held while a source is in use, so close() never races it
        self._failures = 0  # tries since the camera last worked for a while
        self._live_since = 0.0
        self._index = 0
        self._due: float | None = None
        self.status: CameraStatus | None = None

    def open(self) -> FrameSource:
        """Open the first source that works; CaptureError listing every attempt when none does."""
        attempts: list[Attempt] = []
        for source in self.sources:
            try:
                source.open()
            except CaptureError as exc:
                attempts.extend(exc.attempts)
                source.close()
                continue
            log.info("camera: reading from %s", source.name)
            self.active = source
            return source
        raise CaptureError(attempts)

    def read(self) -> Frame | None:
        """The next frame, waiting (and reconnecting) as needed; None once closed or ended."""
        with self._lock:
            while not self._closed.is_set():
                if self.active is None and not self._reconnect():
                    continue
                try:
                    image = self.active.grab()
                    if image is not None:
                        image = self.upright(image, self.active.name)
                except CaptureError as exc:
                    log.warning("camera: %s", exc)
                    self._drop_active()
                    self._report(CameraStatus.LOST, str(exc))
                    if self._clock() - self._live_since < self._retry[1]:
                        self._back_off()  # it had only just come back: a loose cable, do not hammer it
                    else:
                        self._failures = 0
                    continue
                if image is None:
                    self._report(CameraStatus.ENDED, self.active.name)
                    return None
                if not self.active.live:
                    self._pace()
                frame = Frame(image, self._clock(), self._index, self.active.name)
                self._index += 1
                return frame
        return None

    def upright(self, image: np.ndarray, source: str) -> np.ndarray:
        """A source's image as BGR, turned ``rotate`` degrees clockwise."""
        image = as_bgr(image, source)
        turn = _TURNS[self.rotate]
        return image if turn is None else cv2.rotate(image, turn)

    def frames(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame

    def _reconnect(self) -> bool:
        try:
            self.open()
        except CaptureError as exc:
            if self._failures == 0:
                log.error("camera: %s", exc)
                self._report(CameraStatus.LOST, str(exc))
            self._back_off()
            return False
        self._live_since = self._clock()
        self._due = None
        self._report(CameraStatus.LIVE, self.active.name)
        return True

    def _back_off(self) -> None:
        """Wait before the next try, twice as long as the last time, up to retry_max_s."""
        delay = min(self._retry[1], self._retry[0] * 2 ** self._failures)
        self._failures += 1
        self._wait(delay)

    def _report(self, status: CameraStatus, detail: str) -> None:
        """Tell ``on_status`` when the status changes (with what happened, or which source)."""
        if status != self.status:
            self.status = status
            self._on_status(status, detail)

    def _pace(self) -> None:
        now = self._clock()
        if self._due is not None and now < self._due:
            self._wait(self._due - now)
            now = self._due
        self._due = now + self._period

    def _drop_active(self) -> None:
        if self.active is not None:
            self.active.close()
            self.active = None

    def close(self) -> None:
        """Stop reading and release the device (after a grab in progress); harmless twice."""
        self._closed.set()
        with self._lock:
            self._drop_active()

    def __enter__(self) -> "Camera":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class LatestFrame:
    """A one-frame mailbox: ``put`` replaces any frame not yet taken; ``get`` takes the newest."""

    def __init__(self):
        self._cond = threading.Condition()
        self._frame: Frame | None = None
        self.dropped = 0  # frames replaced before anyone took them

    def put(self, frame: Frame) -> None:
        with self._cond:
            if self._frame is not None:
                self.dropped += 1
            self._frame = frame
            self._cond.notify_all()

    def get(self, timeout: float | None = None) -> Frame | None:
        """The newest frame not yet taken, waiting up to ``timeout`` seconds; None if none came."""
        with self._cond:
            self._cond.wait_for(lambda: self._frame is not None, timeout)
            frame, self._frame = self._frame, None
            return frame


class CaptureThread:
    """Reads ``camera`` in a background thread and calls ``on_frame(frame)`` for every frame."""

    def __init__(self, camera: Camera, on_frame: Callable[[Frame], None]):
        self.camera = camera
        self._on_frame = on_frame
        self.thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def _run(self) -> None:
        for frame in self.camera.frames():
            try:
                self._on_frame(frame)
            except Exception:  # a reader's bug must not stop the camera
                log.exception("camera: the frame callback failed")

    def start(self) -> "CaptureThread":
        self.thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self.camera.close()
        if self.thread.is_alive():
            self.thread.join(timeout)

    def __enter__(self) -> "CaptureThread":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def sources_from_config(
    config: Mapping[str, Any],
    render: Callable[[int], np.ndarray] | None = None,
    by_id_dir: Path = V4L_BY_ID,
) -> list[FrameSource]:
    """The sources the [camera] settings name, in the order to try them ([] for "none")."""
    kind = config["source"]
    size = (int(config["width"]), int(config["height"]))
    fps = float(config["fps"])
    if kind not in SOURCES:
        raise ValueError(f"camera.source: {kind!r} is not one of {', '.join(SOURCES)}")
    if size[0] <= 0 or size[1] <= 0:
        raise ValueError(f"camera.width and camera.height must be positive, got {size[0]}x{size[1]}")
    if kind == "none":
        return []
    if kind == "synthetic":
        if render is None:
            raise ValueError("camera.source = \"synthetic\" needs a scene renderer: "
                             "use `table-assistant demo`, which provides one")
        return [SyntheticSource(render)]
    if kind in ("video", "images"):
        if not config["path"]:
            raise ValueError(f"camera.source = \"{kind}\" needs camera.path")
        source = VideoFileSource if kind == "video" else ImageFolderSource
        return [source(config["path"], loop=bool(config["loop"]))]
    sources: list[FrameSource] = []
    if kind in ("auto", "picamera2"):
        sources.append(PiCameraSource(*size, fps))
    if kind in ("auto", "v4l2"):
        sources.append(V4L2Source(str(config["device"]), *size, fps))
    if kind == "auto" and by_id_dir.is_dir():
        configured = os.path.realpath(str(config["device"]))
        for link in sorted(by_id_dir.glob("*-video-index0")):
            if os.path.realpath(link) != configured:
                sources.append(V4L2Source(str(link), *size, fps))
    return sources


def camera_from_config(
    config: Mapping[str, Any],
    render: Callable[[int], np.ndarray] | None = None,
    on_status: Callable[[CameraStatus, str], None] | None = None,
) -> Camera | None:
    """A Camera for the [camera] settings, or None when camera.source is "none"."""
    sources = sources_from_config(config, render)
    if not sources:
        return None
    return Camera(
        sources, fps=float(config["fps"]), rotate=config["rotate"],
        retry_initial_s=float(config["retry_initial_s"]), retry_max_s=float(config["retry_max_s"]), on_status=on_status,
    )
