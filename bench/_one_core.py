"""One core, as on the kiosk, for the benches that time vision: numpy's BLAS must be told before
numpy loads, so a bench imports this first (OpenCV's own threads it sets with cv2.setNumThreads)."""
import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
