/** Asks for the long story: "Tell me a long story", "a long story, please". */
export const LONG_STORY_REQUEST = /\blong story\b/i;

/**
 * How much slower than other answers the long story is told: at the default 40 ms a word, 240 ms,
 * so its 250-odd words take about a minute. Long enough to copy a run id, stop the run, or drop
 * the connection and come back with `Last-Event-ID`, by hand.
 */
export const LONG_STORY_PACE = 6;

export const LONG_STORY =
  'Once upon a time, in a data centre at the edge of a quiet town, there lived a small gateway. ' +
  'All day long people sent it questions, and all day long it passed each question to a model and carried the answer back, ' +
  'one word at a time, the way a river carries leaves. ' +
  'The gateway was proud of one thing above all: it always knew when nobody was listening any more. ' +
  'When a reader closed the page, the gateway did not shout into the empty room. ' +
  'It stopped the model in the very same moment, so that not one word was wasted and not one token was billed for nothing. ' +
  'One winter night a traveller asked for the longest story in the world. ' +
  'The model began to tell it, slowly, about mountains and ferries and a lighthouse keeper who counted ships. ' +
  'Halfway through, the traveller had to catch a train, and left. ' +
  'The gateway noticed at once, stopped the model politely, and wrote down exactly where the story had reached. ' +
  'The next morning the traveller came back, a little out of breath, and said: I was at event number forty-two. ' +
  'So the gateway found event forty-two and went on from the word after it, as if the night had never happened. ' +
  'The lighthouse keeper counted the last ship home, the ferries tied up for the winter, and the mountains kept their snow. ' +
  'The traveller smiled, closed the page, and this time the gateway stopped, ' +
  'because the story was over, and because that is what good gateways do. The end.';
