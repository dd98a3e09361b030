"""Which non-English language a question is written in, for the languages the cross-lingual
encoder (USE-m) knows besides Chinese, and the words of each that carry no topic.

- Latin-script languages (German, French, Spanish, Italian, Portuguese, Dutch): told apart
  from English by their function words (`latin_language`). Before, a German question went down
  the English path, every word read as an English topic word: "Welche Arbeiten befassen sich mit
  MoE-Latenz?" abstained, "none covers Welche Arbeiten befassen sich mit MoE-Latenz".
- Japanese (`japanese`): kana. A Japanese question was read as Chinese (jieba, CC-CEDICT) and
  answered with Chinese framing text.
`SCAFFOLD[lang]`: question words, articles, prepositions and research verbs of each language,
which separate the topical pieces of a question and are never glossed; `OR[lang]`: its "or".

Scope: word lists, no model. A question needs at least `MIN_SIGNS` function words of one
language that English does not have, and more of them than English stopwords, so a single
foreign word ("die casting", "de novo") never moves an English question.
"""

from __future__ import annotations

import re

_WORDS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
_KANA = re.compile(r"[\u3040-\u30ff]")
MIN_SIGNS = 2

# Per language: words that name no topic (lowercase). The first line of each is what identifies
# the language; every word also separates pieces.
SCAFFOLD: dict[str, frozenset[str]] = {
    "de": frozenset("""
welche welcher welches welchen welchem gibt es sich befassen befasst beschäftigen beschäftigt untersuchen untersucht
behandeln behandelt arbeiten arbeit artikel studien studie forschung beiträge beitrag veröffentlichungen publikationen
der das den dem des ein eine einer einen eines einem und oder mit von vom zu zum zur für über auf im am bei aus durch
nach ohne um sind ist werden wird haben hat kann können etwas irgendwelche alle liste zeige zeigen bitte mir nicht
auch noch diese dieser dieses solche sowie wie viele wieviel was wer wo nutzen nutzt verwenden verwendet benutzen
schlagen vor vorgeschlagen paper papers thema themen bezug beziehen gehen geht einsetzen setzen ein die bauen
schätzen schätzt
""".split()),
    "fr": frozenset("""
quels quelles quel quelle lesquels lesquelles existe-t-il y a-t-il il des les le la un une du de et ou avec pour sur
dans en par sans aux au sont est ont articles article papiers papier travaux travail études étude recherches recherche
publications portent porte traitent traite étudient étudie abordent aborde utilisent utilise proposent propose
concernant concernent sujet liste lister montrez montre donnez moi tous toutes ce ces cette qui que se ne pas aussi
leur leurs quoi comment combien où y a t d l qu s existe-t-il sont-ils appuient appuie basent estiment estime
""".split()),
    "es": frozenset("""
qué cuáles cuál quién cómo cuántos cuántas dónde hay existen existe algún alguna algunos algunas los las el la lo un
una unos unas del de al y e o u con para por sobre en sin entre son es están está artículos artículo trabajos trabajo
estudios estudio investigaciones investigación publicaciones abordan aborda estudian estudia tratan trata usan usa
utilizan utiliza proponen propone se que lista enumera muestra muéstrame dame todos todas este esta estos estas
también papers basan basa estiman estima
""".split()),
    "it": frozenset("""
quali quale quanti quante che chi come dove ci sono c'è esistono esiste alcuni alcune gli lo la le il i un una uno del
della dei degli delle di da dal dalla e ed o oppure con per su sul sulla in nel nella tra fra senza sono è articoli
articolo lavori lavoro studi studio ricerche ricerca pubblicazioni affrontano affronta studiano studia trattano tratta
usano usa utilizzano utilizza propongono propone si elenca elenco mostra tutti tutte questo questa anche papers basano
stimano stima
""".split()),
    "pt": frozenset("""
quais qual quantos quantas que quem como onde há existem existe algum alguma alguns algumas os as o a um uma uns umas
do da dos das de ao à e ou com para por sobre em no na nos nas sem entre são é estão está artigos artigo trabalhos
trabalho estudos estudo pesquisas pesquisa publicações abordam aborda estudam estuda tratam trata usam usa utilizam
utiliza propõem propõe se lista liste mostre todos todas este esta também papers baseiam baseia
estimam estima
""".split()),
    "nl": frozenset("""
welke hoeveel zijn er bestaan het een en of met voor over op in van aan bij uit door naar zonder om zich artikelen
artikel werk werken studies studie onderzoek publicaties behandelen behandelt gaan gebruiken gebruikt onderzoeken
onderzoekt stellen lijst toon geef alle ook die dat deze dit wat wie hoe waar papers
""".split()),
}
OR: dict[str, frozenset[str]] = {"de": frozenset({"oder"}), "fr": frozenset({"ou"}), "es": frozenset({"o", "u"}),
                                 "it": frozenset({"o", "oppure"}), "pt": frozenset({"ou"}), "nl": frozenset({"of"})}
# Words that join a noun phrase ("mezcla de expertos", "réseaux de neurones", "Mixture-of-Experts"):
# kept inside a run so the phrase is looked up whole, never glossed alone.
JOINS = frozenset("de d del des du di da do dos das della dei degli delle dello von of".split())
# A list question's opening words, per language (the English head "Which papers" carries the kind
# to the relevance analysis, as `zh.frame` does for Chinese).
_LIST_OPENINGS = re.compile(
    r"^[\s¿¡]*(?:welche|gibt es|zeige|quel(?:le)?s?|lesquel(?:le)?s|existe-t-il|y a-t-il|montre[sz]?|liste[rz]?|"
    r"qu[ée]|cu[áa]les?|hay|existen|muestra|enumera|quali|ci sono|esistono|elenca|quais|h[áa]|existem|mostre|"
    r"welke|zijn er|bestaan|toon|geef)\b", re.I)
_COUNT_OPENINGS = re.compile(r"^[\s¿¡]*(?:wie viele|wieviele|combien|cu[áa]nt[oa]s|quant[ie]|quant[oa]s|hoeveel)\b", re.I)


# English function words (the analyzer's stopwords would be an import cycle: analyzer -> zh -> here).
_ENGLISH = frozenset("""
a an the of for and or in on with to via by from using based towards toward into at as its their is are was were be
been being we our us how what when why which who whom whose where there here this that these those it they them any
some all each every no not only also than then so such can could may might will would shall should do does did done
have has had about over under between through during before after above below up down out off again further once
more most other same own very just but if because while until both few nor too i you he she his her my your me
""".split())


# Everyday English words the lists above hold (a German "hat" or a Dutch "over" is no sign).
_ENGLISH_ALSO = frozenset("die was hat will also art bei see son sin come dove use usa este me "
                          "pas porte gel study studio lista liste via papers paper sonos alle hoe ten article articles".split())
# Per language, its scaffolding words that are not English words too ("die", "was", "in" are):
# built once, since every question (English ones too) is checked.
_DISTINCT = {lang: frozenset(w for w in scaffold if w not in _ENGLISH | _ENGLISH_ALSO and len(w) > 1)
             for lang, scaffold in SCAFFOLD.items()}


def words(text: str) -> list[str]:
    """Lowercased words, acronyms left out ("DA-NAS" is no Portuguese "da" and "nas")."""
    return [w.lower() for w in _WORDS.findall(text) if not (len(w) > 1 and w.isupper())]


def latin_language(text: str) -> str | None:
    """The Latin-script language other than English that `text` is written in, or None."""
    found = words(text)
    if len(found) < 2:
        return None
    english = sum(w in _ENGLISH for w in found)
    best, best_n = None, 0
    for lang, distinct in _DISTINCT.items():
        n = sum(w in distinct for w in found)
        if n > best_n:
            best, best_n = lang, n
    if best is None or best_n < MIN_SIGNS or best_n <= english:
        return None
    return best


def japanese(text: str) -> bool:
    return bool(_KANA.search(text))


def frame(text: str) -> str:
    """An English head carrying a Latin-script question's kind: "Which papers" (a list), "What is"
    (a number asked for), or ""."""
    if _COUNT_OPENINGS.search(text):
        return "What is"
    if _LIST_OPENINGS.search(text):
        return "Which papers"
    return ""


# Japanese: kanji and katakana runs are the topical pieces; hiragana (particles, verb endings)
# and these words separate them.
JA_SCAFFOLD = frozenset("論文 研究 関 扱 用 使 何 件 本 提案 一覧 全 教 示 行 取 組 述 調 探 検討 手法 方法 場合 中 的".split())
_JA_RUN = re.compile(r"[\u4e00-\u9fff\u30a0-\u30ffー]+|[A-Za-z0-9][A-Za-z0-9\-+.]*[A-Za-z0-9+]|[A-Za-z]")
_JA_OR = re.compile(r"または|あるいは|もしくは")
_JA_COUNT = re.compile(r"いくつ|何(?:個|人|パーセント|%|割|倍)|どれ(?:くらい|ぐらい)|どのくらい|どの程度")
_JA_LIST = re.compile(r"どの論文|論文は|研究は|ありますか|一覧|どれ")


def japanese_pieces(text: str) -> list[str | list[str]]:
    """A Japanese question's topical pieces in order: each run of kanji/katakana one word (a list of
    one), Latin-script words as strings, "or" for または; scaffolding runs left out."""
    out: list[str | list[str]] = []
    pos = 0
    marks = sorted([(m.start(), m.end(), "or") for m in _JA_OR.finditer(text)]
                   + [(m.start(), m.end(), m.group(0)) for m in _JA_RUN.finditer(text)])
    for start, end, piece in marks:
        if start < pos:
            continue
        pos = end
        if piece == "or" and text[start:end] != "or":
            out.append("or")
        elif piece.isascii():
            out.append(piece)
        elif piece not in JA_SCAFFOLD:
            out.append(_ja_words(piece))
    return out


_JA_SCRIPT = re.compile(r"[\u4e00-\u9fff]+|[\u30a0-\u30ffー]+")


def _ja_words(run: str) -> list[str]:
    """A kanji/katakana run as words, without a dictionary: katakana apart from kanji, and kanji
    in pairs (most kanji compounds are two-character words: 推論 遅延, 強化 学習; an odd one
    ends in three). The cross-lingual lookup joins neighbouring words again (拡散 + モデル ->
    "diffusion models"), so a whole compound is still looked up first."""
    words: list[str] = []
    for m in _JA_SCRIPT.finditer(run):
        part = m.group(0)
        if not ("\u4e00" <= part[0] <= "\u9fff") or len(part) <= 3:
            words.append(part)
            continue
        cut = [part[i:i + 2] for i in range(0, len(part) - 3, 2)]
        words.extend([*cut, part[2 * len(cut):]])
    return [w for w in words if w not in JA_SCAFFOLD] or [run]


def japanese_frame(text: str) -> str:
    if _JA_COUNT.search(text):
        return "What is"
    if _JA_LIST.search(text):
        return "Which papers"
    return ""
