"""Pure rules engines: no I/O, no OpenCV, no Kivy."""
