"""The benchmark: this server beside the floor and PostGraphile, one run, one machine."""
