"""``python -m mcplite.demo``: the tour."""

from mcplite.demo.tour import main

if __name__ == "__main__":
    main()
