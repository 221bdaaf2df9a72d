"""The Whoosh indexes: schema, building and updating (the one writer), and the
read-only search backend."""
