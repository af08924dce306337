"""Training data and scripts for the vision models (the scripts need PyTorch; reading does not)."""
