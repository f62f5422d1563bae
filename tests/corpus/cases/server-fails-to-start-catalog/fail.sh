#!/bin/sh
echo "fatal: cannot open config /etc/weather.toml" >&2
exit 3
