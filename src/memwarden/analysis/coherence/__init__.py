"""Memory that agrees with itself: contradictions across layers, repeats, provenance.

`records.py` reads the live records of a workspace (facts, notes, episodes); `statements.py`
reduces a sentence to its content, values and polarity (the polarity from the negative-claim
detector); `relations.py` decides whether two statements contradict or repeat each other;
`sketch.py` buckets them with MinHash bands so nothing is compared all-pairs; `conflicts.py`,
`duplicates.py` and `fact_keys.py` find the pairs; `provenance.py` reads a record's source,
date and confidence.
"""

from memwarden.analysis.coherence.conflicts import Conflict, find_conflicts
from memwarden.analysis.coherence.duplicates import Repeat, find_repeats
from memwarden.analysis.coherence.fact_keys import FactKeyConflict, fact_key_conflicts
from memwarden.analysis.coherence.provenance import ASPECTS, Lack, lacks
from memwarden.analysis.coherence.records import MemoryRecord, memory_records, standing

__all__ = [
    "ASPECTS", "Conflict", "FactKeyConflict", "Lack", "MemoryRecord", "Repeat", "fact_key_conflicts",
    "find_conflicts", "find_repeats", "lacks", "memory_records", "standing",
]
