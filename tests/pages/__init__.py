"""The pages in headless Chromium: the console, the hall display, the start page."""
