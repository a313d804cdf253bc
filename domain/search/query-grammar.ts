// The search language's grammar (peggy). Compiled once when the module loads (peggy.generate):
// a ~100-line grammar compiles in a few milliseconds, and keeping the grammar as the only source
// means there is no generated parser file that can drift from it or need a build step.
//
// Precedence, loosest first: OR, AND (explicit or implied by whitespace), NOT / `-`.
// Keywords AND, OR, NOT and TO are upper-case (lower-case "and" is a word, as in Lucene).
import peggy from 'peggy';

export type CompareOp = '=' | '>' | '>=' | '<' | '<=';

export type QueryNode =
  | { kind: 'all' }
  | { kind: 'and'; children: QueryNode[] }
  | { kind: 'or'; children: QueryNode[] }
  | { kind: 'not'; child: QueryNode }
  | { kind: 'term'; field: string | null; value: string; phrase: boolean; wildcard: boolean; offset: number }
  | { kind: 'compare'; field: string; op: CompareOp; value: string; offset: number }
  | { kind: 'range'; field: string; from: string | null; to: string | null; offset: number };

export const QUERY_GRAMMAR = String.raw`
Query
  = _ e:OrExpr _ { return e; }
  / _ { return { kind: 'all' }; }

OrExpr
  = head:AndExpr tail:(_ OR _ @AndExpr)* { return tail.length ? { kind: 'or', children: [head, ...tail] } : head; }

AndExpr
  = head:UnaryExpr tail:(AndSep @UnaryExpr)* { return tail.length ? { kind: 'and', children: [head, ...tail] } : head; }

AndSep
  = _ AND _
  / __ !(OR (__ / "("))

UnaryExpr
  = NOT _ e:UnaryExpr { return { kind: 'not', child: e }; }
  / "-" e:UnaryExpr { return { kind: 'not', child: e }; }
  / Primary

Primary
  = "(" _ e:OrExpr _ ")" { return e; }
  / FieldExpr
  / TermExpr

FieldExpr
  = f:FieldName op:CompareOp v:Value { return { kind: 'compare', field: f, op, value: v.value, offset: location().start.offset }; }
  / f:FieldName ":" op:CompareOp v:Value { return { kind: 'compare', field: f, op, value: v.value, offset: location().start.offset }; }
  / f:FieldName ":" "[" _ a:RangeEnd __ "TO" __ b:RangeEnd _ "]" { return { kind: 'range', field: f, from: a, to: b, offset: location().start.offset }; }
  / f:FieldName ":" v:Value { return { kind: 'term', field: f, value: v.value, phrase: v.phrase, wildcard: v.wildcard, offset: location().start.offset }; }

TermExpr
  = !Keyword v:Phrase { return { kind: 'term', field: null, value: v.value, phrase: true, wildcard: false, offset: location().start.offset }; }
  / !Keyword w:Word { return { kind: 'term', field: null, value: w, phrase: false, wildcard: w.includes('*'), offset: location().start.offset }; }

Value
  = p:Phrase { return p; }
  / w:ValueWord { return { value: w, phrase: false, wildcard: w.includes('*') }; }

Phrase
  = OpeningQuote chars:PhraseChar* ClosingQuote { return { value: chars.join(''), phrase: true, wildcard: false }; }

OpeningQuote "a quoted phrase"
  = '"'

ClosingQuote "a closing quote"
  = '"'

ValueWord "a value"
  = $ValueChar+

PhraseChar "a phrase character"
  = '\\' c:["\\] { return c; }
  / [^"\\]

RangeEnd "a range bound"
  = "*" { return null; }
  / $[^ \t\r\n\]]+

FieldName "a field name"
  = $([a-zA-Z_][a-zA-Z0-9_]*)

CompareOp "a comparison (>, >=, <, <=, =)"
  = ">=" / "<=" / ">" / "<" / "="

Word "a word"
  = $[^ \t\r\n()"<>=:\[\]]+

ValueChar
  = [^ \t\r\n()"\[\]]

Keyword
  = (AND / OR / NOT) !WordChar

WordChar
  = [^ \t\r\n()"]

AND = "AND" !WordChar
OR = "OR" !WordChar
NOT = "NOT" !WordChar

_ "whitespace"
  = [ \t\r\n]*

__ "whitespace"
  = [ \t\r\n]+
`;

export const queryParser = peggy.generate(QUERY_GRAMMAR);

export interface GrammarSyntaxError {
  message: string;
  expected: string[];
  found: string | null;
  location: { offset: number; line: number; column: number };
}

/** Parses a query into its AST (no field validation: see parse-query.ts). */
export function parseQueryText(text: string): { ok: true; ast: QueryNode } | { ok: false; error: GrammarSyntaxError } {
  try {
    return { ok: true, ast: queryParser.parse(text) as QueryNode };
  } catch (err) {
    if (err instanceof queryParser.SyntaxError) {
      const e = err as peggy.parser.SyntaxError;
      const expected = [...new Set((e.expected ?? []).map((x) => ('description' in x && x.description ? x.description : 'text' in x ? JSON.stringify(x.text) : x.type === 'end' ? 'end of query' : x.type)))];
      const start = e.location.start;
      return { ok: false, error: { message: e.message, expected, found: e.found, location: { offset: start.offset, line: start.line, column: start.column } } };
    }
    throw err;
  }
}
