// English function words dropped from the keyword side of search. OR-ing every word of a
// natural-language question lets "what", "the", "of" match (and rank) nearly every node;
// measured on CISI this alone is +10% nDCG@10 and neutral on short known-item queries
// (README, search quality). The semantic side still embeds the full query text.
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are aren as at be because been before being below
  between both but by can cannot could did do does doing don down during each few for from further had has
  have having he her here hers herself him himself his how i if in into is it its itself let me more most my
  myself no nor not of off on once only or other ought our ours ourselves out over own same she should so
  some such than that the their theirs them themselves then there these they this those through to too under
  until up very was we were what when where which while who whom why with would you your yours yourself
  yourselves also may might must shall will just yet via per etc eg ie s t`.split(/\s+/),
);
