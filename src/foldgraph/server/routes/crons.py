"""Crons: create, update, delete, search, count."""

from __future__ import annotations

routes: list = []
