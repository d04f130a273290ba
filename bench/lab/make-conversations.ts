// Builds the conversation-memory lab collection (bench/lab/conversations/): long multi-session
// chats between two people, generated from templates with a seeded generator, so it is ours
// to publish and the same every time. Each turn is one node (a tenant per conversation, the
// node dated by its session); each question names the turns that answer it.
//
// What makes it hard, as real agent memory is: the facts are said once, in passing, in the
// speaker's own words, and asked about later in other words ("we brought home a beagle from
// the rescue" → "What pet did Maya adopt?"); most turns are chit-chat that shares the
// questions' everyday words; some facts change later (a second job, a move) and some
// questions ask about a month ("What did Maya do in March 2023?").
//
//   npx esbuild bench/lab/make-conversations.ts --bundle --platform=node --format=esm \
//     --outfile=dist/lab-conversations.mjs && node dist/lab-conversations.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../synthetic.js';

export interface Turn { id: string; speaker: string; text: string }
export interface Session { date: string; turns: Turn[] }
export interface Conversation { id: string; speakers: [string, string]; sessions: Session[] }
export interface Question { id: string; conversation: string; text: string; evidence: string[]; category: 'fact' | 'temporal' | 'month' | 'update' }

type Pick = <T>(xs: readonly T[]) => T;

/** A fact a speaker mentions once; `ask` are other people's ways of asking about it. */
interface FactKind {
  kind: string;
  slots: Record<string, readonly string[]>;
  say: readonly string[];
  ask: readonly string[];
  /** Asked as "When did …?" (the answer is the session's date). */
  when?: string;
}

const FACTS: FactKind[] = [
  {
    kind: 'pet',
    slots: { animal: ['beagle', 'tabby kitten', 'border collie', 'rescue greyhound', 'pair of budgies'], pname: ['Biscuit', 'Pepper', 'Miso', 'Juniper', 'Waffles'] },
    say: [
      'Big news on my end, we finally brought home a {animal} from the shelter on Saturday. We are calling {it} {pname}.',
      'So the house is chaos now, we adopted a {animal} last weekend and named {it} {pname}. Nobody sleeps anymore.',
    ],
    ask: ['What pet did {S} adopt, and what is its name?', 'What is the name of the animal {S} took in from the rescue?'],
    when: 'When did {S} adopt {pname}?',
  },
  {
    kind: 'job',
    slots: { role: ['data analyst', 'pastry chef', 'nurse practitioner', 'high school chemistry teacher', 'urban planner'], company: ['Harbor Health', 'Northwind Logistics', 'the city council', 'Blue Fern Bakery', 'Lakeside Academy'] },
    say: [
      'I signed the offer today! Starting next month as a {role} at {company}. Terrified and excited.',
      'Remember that interview I was nervous about? They called back, I am going to be a {role} at {company}.',
    ],
    ask: ['What new position did {S} accept, and with which employer?', 'Where is {S} going to work after the interview went well?'],
    when: 'When did {S} get the offer from {company}?',
  },
  {
    kind: 'trip',
    slots: { place: ['Lisbon', 'Kyoto', 'the Scottish Highlands', 'Patagonia', 'Iceland'], detail: ['ate way too many pastries', 'hiked until my knees gave out', 'got lost in the old town every single day', 'saw the northern lights once', 'took a night train'] },
    say: [
      'Just got back from ten days in {place}. I {detail}, but it was worth every minute.',
      'The vacation in {place} was unreal, honestly. I {detail} and I already want to go back.',
    ],
    ask: ['Which country or region did {S} visit on holiday?', 'Where did {S} go on vacation?'],
    when: 'When did {S} travel to {place}?',
  },
  {
    kind: 'hobby',
    slots: { hobby: ['pottery', 'bouldering', 'salsa dancing', 'watercolour painting', 'the cello'] },
    say: [
      'I signed up for {hobby} lessons on Tuesday evenings. My first try was a disaster but I loved it.',
      'New obsession: {hobby}. I go to a class twice a week now, the instructor is very patient with me.',
    ],
    ask: ['What activity did {S} start taking classes in?', 'Which new pastime has {S} taken up?'],
    when: 'When did {S} start {hobby}?',
  },
  {
    kind: 'injury',
    slots: { injury: ['sprained my ankle', 'broke my wrist', 'tore a ligament in my knee', 'cracked a rib'], cause: ['slipping on the ice outside the gym', 'falling off my bike on the way to work', 'tripping over the dog at the top of the stairs', 'a bad landing playing volleyball'] },
    say: ['Bit of a setback: I {injury} after {cause}. Six weeks of rest, the doctor says.', 'I am typing one-handed, I {injury} after {cause}. Not my finest moment.'],
    ask: ['How did {S} get hurt?', 'What accident did {S} have?'],
    when: 'When did {S} get injured?',
  },
  {
    kind: 'move',
    slots: { city: ['Denver', 'Montreal', 'Edinburgh', 'Austin', 'Melbourne'], why: ['closer to my parents', 'for the new role', 'because rent here went crazy', 'to be near the mountains'] },
    say: ['We are packing boxes, we are relocating to {city} {why}. The truck comes on Friday.', 'It is official, I found a flat in {city}. Moving {why}, wish me luck with the boxes.'],
    ask: ['Which city did {S} relocate to?', 'Where does {S} live now after packing up?'],
    when: 'When did {S} move to {city}?',
  },
  {
    kind: 'book',
    slots: { book: ['Middlemarch', 'The Left Hand of Darkness', 'a biography of Ada Lovelace', 'Pride and Prejudice', 'a history of the Silk Road'] },
    say: ['I could not put down {book} this week, I stayed up until two reading it.', 'My book club picked {book} and I am surprisingly hooked.'],
    ask: ['What has {S} been reading lately?', 'Which book kept {S} up at night?'],
  },
  {
    kind: 'race',
    slots: { race: ['half marathon', 'ten kilometre trail run', 'sprint triathlon', 'charity bike ride of a hundred miles'], time: ['in just under two hours', 'without walking once', 'in the pouring rain', 'with my brother'] },
    say: ['I did it! Finished my first {race} {time}. My legs are jelly.', 'Crossed the finish line of the {race} {time} this morning, so proud.'],
    ask: ['What endurance event did {S} complete?', 'What sporting challenge did {S} finish?'],
    when: 'When did {S} complete the {race}?',
  },
  {
    kind: 'family',
    slots: { relative: ['sister', 'brother', 'cousin', 'best friend from college'], babyname: ['Theo', 'Amara', 'Felix', 'Rosalind'] },
    say: ['My {relative} had the baby, a healthy little one called {babyname}! I am an aunt-figure now.', 'Guess who is holding a newborn? My {relative} just welcomed {babyname} into the world.'],
    ask: ['Whose child was born, and what is the name?', 'What is the name of the newborn in {S}\'s family?'],
    when: 'When was {babyname} born?',
  },
  {
    kind: 'car',
    slots: { car: ['a secondhand electric hatchback', 'a rusty old camper van', 'a red vintage convertible', 'a hybrid station wagon'] },
    say: ['Finally replaced the old car, I bought {car}. Test drive went great.', 'I went to the dealership on a whim and drove home in {car}.'],
    ask: ['What vehicle did {S} purchase?', 'What did {S} drive home from the dealership?'],
  },
];

const CHAT = [
  'How has your week been?', 'That sounds wonderful, I am so happy for you!', 'Ha, that is so you.', 'Ugh, work has been relentless lately.',
  'I made soup again, the weather called for it.', 'Did you end up watching that show I told you about?', 'I need a holiday, honestly.',
  'My neighbour is renovating and the drilling starts at seven.', 'We should catch up properly over coffee soon.', 'I have been trying to sleep earlier, with mixed results.',
  'The garden is finally coming back to life.', 'I keep meaning to call my parents more often.', 'That made me laugh out loud on the bus.',
  'How is your family doing?', 'Any plans for the weekend?', 'I cleaned out the closet and found my old diaries.', 'Send me pictures!',
  'I know what you mean, it is a lot.', 'Fingers crossed for you.', 'Let me know how it goes.', 'I tried a new recipe and it was edible, barely.',
  'Traffic this morning was a nightmare.', 'My phone screen cracked again.', 'I started journaling a bit in the mornings.', 'Thanks for listening, really.',
  'I have always wanted a dog but my landlord says no pets.', 'I thought about changing jobs too, but not yet.', 'Travelling is expensive right now, so we stayed home.',
  'I read a few pages before bed most nights.', 'My knee has been acting up since the winter.', 'Some friends of ours moved away last year and we miss them.',
  'I keep seeing ads for running shoes, the algorithm knows me.', 'Our car made a strange noise, the mechanic shrugged.', 'Babies are exhausting, my cousin says.',
  'I took a class once, years ago, and quit after two weeks.', 'The city feels different in spring.', 'Books are my escape these days.',
];

const NAMES = [['Maya', 'Jonah'], ['Priya', 'Tom'], ['Lena', 'Marcus'], ['Sofia', 'Dev'], ['Hannah', 'Kofi'], ['Ines', 'Ravi']] as const;
const START = Date.UTC(2023, 0, 8, 18, 30);
const DAY = 86_400_000;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function fill(template: string, slots: Record<string, string>, speaker: string): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => (k === 'S' ? speaker : k === 'it' ? (slots.animal?.startsWith('pair') ? 'them' : 'it') : slots[k] ?? k));
}

export function makeConversations(seed = 20231): { conversations: Conversation[]; questions: Question[] } {
  const r = mulberry32(seed);
  const pick: Pick = (xs) => xs[Math.floor(r() * xs.length)];
  const conversations: Conversation[] = [];
  const questions: Question[] = [];
  NAMES.forEach(([a, b], ci) => {
    const cid = `conv${ci + 1}`;
    const sessions: Session[] = [];
    let t = START + Math.floor(r() * 10) * DAY;
    // Each speaker gets every fact kind once, in a shuffled order spread over the sessions.
    const plan: { speaker: string; fact: FactKind }[] = [];
    for (const s of [a, b]) for (const f of FACTS) plan.push({ speaker: s, fact: f });
    plan.sort(() => r() - 0.5);
    const SESSIONS = 22;
    let turnNo = 0;
    const facts: { speaker: string; fact: FactKind; slots: Record<string, string>; turn: string; date: number }[] = [];
    for (let si = 0; si < SESSIONS; si++) {
      const turns: Turn[] = [];
      const due = plan.splice(0, si < SESSIONS - 1 ? Math.ceil(plan.length / (SESSIONS - si)) : plan.length);
      const length = 18 + Math.floor(r() * 14);
      const slotsAt = new Set<number>();
      while (slotsAt.size < due.length) slotsAt.add(2 + Math.floor(r() * (length - 3)));
      const at = [...slotsAt].sort((x, y) => x - y);
      let di = 0;
      for (let k = 0; k < length; k++) {
        const speaker = k % 2 === 0 ? a : b;
        const id = `${cid}_t${++turnNo}`;
        if (di < due.length && at[di] === k) {
          const f = due[di++];
          const slots = Object.fromEntries(Object.entries(f.fact.slots).map(([key, vals]) => [key, pick(vals)]));
          turns.push({ id, speaker: f.speaker, text: fill(pick(f.fact.say), slots, f.speaker) });
          facts.push({ speaker: f.speaker, fact: f.fact, slots, turn: id, date: t });
        } else {
          turns.push({ id, speaker, text: pick(CHAT) + (r() < 0.3 ? ' ' + pick(CHAT) : '') });
        }
      }
      sessions.push({ date: new Date(t).toISOString(), turns });
      t += (7 + Math.floor(r() * 21)) * DAY;
    }
    let qn = 0;
    const q = (text: string, evidence: string[], category: Question['category']) => questions.push({ id: `${cid}_q${++qn}`, conversation: cid, text, evidence, category });
    for (const f of facts) {
      q(fill(pick(f.fact.ask), f.slots, f.speaker), [f.turn], 'fact');
      if (f.fact.when && r() < 0.5) q(fill(f.fact.when, f.slots, f.speaker), [f.turn], 'temporal');
    }
    // A month's events: every fact turn said by that speaker in that month.
    const byMonth = new Map<string, string[]>();
    for (const f of facts) {
      const d = new Date(f.date);
      const key = `${f.speaker}|${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
      (byMonth.get(key) ?? byMonth.set(key, []).get(key)!).push(f.turn);
    }
    for (const [key, turns] of [...byMonth].filter(() => r() < 0.4)) {
      const [speaker, month] = key.split('|');
      q(`What was going on in ${speaker}'s life in ${month}?`, turns, 'month');
    }
    conversations.push({ id: cid, speakers: [a, b], sessions });
  });
  return { conversations, questions };
}

if (process.argv[1]?.includes('lab-conversations')) {
  const out = join(process.cwd(), 'bench', 'lab', 'conversations');
  mkdirSync(out, { recursive: true });
  const { conversations, questions } = makeConversations();
  writeFileSync(join(out, 'conversations.jsonl'), conversations.map((c) => JSON.stringify(c)).join('\n') + '\n');
  writeFileSync(join(out, 'questions.jsonl'), questions.map((x) => JSON.stringify(x)).join('\n') + '\n');
  const turns = conversations.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
  console.log(JSON.stringify({ conversations: conversations.length, turns, questions: questions.length }));
}
