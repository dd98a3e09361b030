"""Text analysis shared by ingest, retrieval and answering, one concern per module:

- `sentences`: abstracts as sentence offsets (quotes are exact substrings);
- `analyzer`: the BM25 / coverage analyzer (`terms`, `concepts`, `STOPWORDS`);
- `zh`: Chinese questions glossed into English (jieba + CC-CEDICT);
- `acronyms`: corpus-learned acronym <-> expansion links.
"""
