"""What the kiosk draws on and reads touches from, from fake /sys trees."""
from assistant.display import Connector, Screen, connectors, draws_on_screen, input_devices, screen_connector
from fake_pi import (ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_X, ABS_Y, BTN_TOUCH, bitmap, connector,
                     input_device, keyboard_and_mouse, pi5_with_dsi, touchscreen)

KMSDRM = {"SDL_VIDEODRIVER": "kmsdrm"}


def test_a_pi5_draws_on_the_card_of_its_connected_dsi_screen_whatever_its_number(tmp_path):
    pi5_with_dsi(tmp_path)
    screen = Screen.survey(KMSDRM, tmp_path)
    assert screen.connector == Connector(2, "DSI-2", "connected")
    assert screen.sdl_environment() == {"SDL_TOUCH_MOUSE_EVENTS": "0", "SDL_KMSDRM_DEVICE_INDEX": "2"}
    assert "card2-DSI-2 (/dev/dri/card2)" in screen.describe()
    env = {"SDL_VIDEODRIVER": "kmsdrm", "SDL_TOUCH_MOUSE_EVENTS": "1"}
    screen.set_sdl_environment(env)
    assert env["SDL_KMSDRM_DEVICE_INDEX"] == "2" and env["SDL_TOUCH_MOUSE_EVENTS"] == "0"
    owners = {"SDL_VIDEODRIVER": "kmsdrm", "SDL_KMSDRM_DEVICE_INDEX": "0"}
    screen.set_sdl_environment(owners)
    assert owners["SDL_KMSDRM_DEVICE_INDEX"] == "0"  # the owner's choice (doctor says when it is wrong)


def test_a_built_in_panel_is_preferred_to_hdmi_and_hdmi_is_used_alone(tmp_path):
    connector(tmp_path, 0, "HDMI-A-1")
    connector(tmp_path, 1, "DSI-1")
    assert screen_connector(connectors(tmp_path)).label == "card1-DSI-1"
    hdmi = tmp_path / "hdmi"
    connector(hdmi, 1, "HDMI-A-1")
    connector(hdmi, 0, "HDMI-A-2", "disconnected")
    assert screen_connector(connectors(hdmi)).label == "card1-HDMI-A-1"
    assert screen_connector(connectors(tmp_path / "nothing")) is None


def test_touchscreens_are_told_from_keyboards_mice_and_touchpads(tmp_path):
    keyboard_and_mouse(tmp_path)
    touchscreen(tmp_path, 4, "raspberrypi-ts")
    input_device(tmp_path, 5, "ADS7846 Touchscreen", abs_bits={ABS_X, ABS_Y}, keys={BTN_TOUCH})  # resistive
    found = {d.name: (d.touchscreen, d.multitouch) for d in input_devices(tmp_path)}
    assert found == {"Logitech USB Receiver": (False, False), "Logitech USB Receiver Mouse": (False, False),
                     "SynPS/2 Synaptics TouchPad": (False, True), "raspberrypi-ts": (True, True),
                     "ADS7846 Touchscreen": (True, False)}
    assert [d.node for d in input_devices(tmp_path) if d.touchscreen] == [
        str(tmp_path / "dev/input/event4"), str(tmp_path / "dev/input/event5")]


def test_capability_bitmaps_are_read_in_the_kernels_word_size(tmp_path):
    bits = {ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y}
    assert bitmap(bits, 64) == "60000000000003" and bitmap(bits, 32) == "600000 3"
    info = tmp_path / "sys/class/input/event0/device"
    (info / "capabilities").mkdir(parents=True)
    (info / "capabilities/abs").write_text("600000 3\n")  # a 32-bit kernel
    (info / "properties").write_text("2\n")
    (device,) = input_devices(tmp_path, word_bits=32)
    assert device.touchscreen and device.multitouch and device.name == ""


def test_under_kmsdrm_kivy_reads_each_touchscreen_once_and_sdl_makes_no_mouse_of_it(tmp_path):
    keyboard_and_mouse(tmp_path)
    touchscreen(tmp_path, 4)
    input_device(tmp_path, 5, "ADS7846 Touchscreen", abs_bits={ABS_X, ABS_Y}, keys={BTN_TOUCH})
    screen = Screen.survey({"SDL_VIDEODRIVER": "KMSDRM", "DISPLAY": ":0"}, tmp_path)
    assert screen.input_providers() == {
        "mouse": "mouse,disable_multitouch,disable_on_activity",
        "touch_event4": f"mtdev,{tmp_path}/dev/input/event4",
        "touch_event5": f"hidinput,{tmp_path}/dev/input/event5",
    }
    assert screen.sdl_environment() == {"SDL_TOUCH_MOUSE_EVENTS": "0"}  # no connector: SDL's own pick
    assert "no DRM connector is connected" in screen.describe()


def test_under_a_desktop_the_desktops_pointer_is_the_only_reader(tmp_path):
    touchscreen(tmp_path)
    screen = Screen.survey({"WAYLAND_DISPLAY": "wayland-1"}, tmp_path)
    assert not screen.on_screen and screen.input_providers() == {"mouse": "mouse,disable_multitouch"}
    assert screen.sdl_environment() == {} and screen.describe().startswith("drawing in a desktop's window")


def test_no_desktop_means_the_screen_itself():
    assert draws_on_screen({}) and draws_on_screen({"DISPLAY": ":0", "SDL_VIDEODRIVER": "kmsdrm"})
    assert not draws_on_screen({"DISPLAY": ":0"})
