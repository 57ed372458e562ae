/** What the answer reader knows of Hindi (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const hi: ReaderPack = {
  code: 'hi',
  questionWords: 'कितने कितनी कितना कब कौन किसने किसका किसकी क्यों कहाँ कहां क्या किस समय तक'.split(' '),
  // How a question asks for each kind of value (src/engine/answer/answer-type.ts): pieces of regular
  // expressions, each with its own word boundaries, matched against the lower-cased question.
  asks: {
    duration: [String.raw`कितने समय`, String.raw`कितनी देर`, String.raw`कितने (?:दिन|सप्ताह|हफ़्ते|महीने|साल|वर्ष|घंटे|मिनट)`, String.raw`कब तक`],
    money: [String.raw`कितने (?:रुपये|पैसे)`, String.raw`क्या कीमत`, String.raw`कीमत क्या`],
    number: [String.raw`कितने`, String.raw`कितनी`, String.raw`कितना`],
    date: [String.raw`(?<![\p{L}\p{M}])कब(?![\p{L}\p{M}])`, String.raw`किस (?:साल|वर्ष|तारीख|दिन)`],
    person: [String.raw`कौन`, String.raw`किसने`, String.raw`किसका`, String.raw`किसकी`],
    reason: [String.raw`क्यों`],
    place: [String.raw`कहाँ`, String.raw`कहां`],
    entity: [String.raw`क्या`, String.raw`कौन सा`, String.raw`कौन सी`, String.raw`किस`],
  },
  // How Hindi sentences give a reason (answer-type.ts).
  values: { reason: [`क्योंकि|इसलिए|के कारण|वजह से`] },
};
