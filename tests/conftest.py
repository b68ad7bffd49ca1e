import sys
from pathlib import Path

# tests import the slow reference as `naive`
sys.path.insert(0, str(Path(__file__).resolve().parent))
