"""Reading a markdown wiki: files, front matter, classification, plain text, passages.

Nothing here knows about the index or the wire format.
"""
