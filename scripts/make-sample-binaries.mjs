#!/usr/bin/env node
// Generates the binary documents of the sample vault (resources/sample-vault/docs):
//   - "Aurora architecture overview.pdf"  (3 pages, one distinct fact per page)
//   - "Onboarding checklist.docx"
//
// Usage (needs the npm packages `pdfkit` and `docx`, which are not project
// dependencies; install them in a scratch directory and run the script there):
//   mkdir /tmp/gen && cd /tmp/gen && npm init -y && npm install pdfkit docx
//   cp /path/to/synapsis/scripts/make-sample-binaries.mjs . && node make-sample-binaries.mjs <out-dir>
// <out-dir> defaults to resources/sample-vault/docs relative to the current directory.
//
// Output is deterministic: fixed PDF dates, and for the DOCX a fixed clock and a
// seeded Math.random while the document is built and zipped. The text below is
// also what resources/sample-vault.questions.json quotes for its pdf/docx questions.

import fs from "node:fs";
import path from "node:path";
import PDFDocument from "pdfkit";
import {
  AlignmentType,
  Document,
  HeadingLevel,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from "docx";

process.env.TZ = "UTC"; // zip entry timestamps use local time

const FIXED_DATE = new Date("2026-03-16T09:00:00.000Z");
const outDir = path.resolve(process.argv[2] ?? path.join("resources", "sample-vault", "docs"));

// ---------------------------------------------------------------------------
// PDF content. Key facts are kept on short lines so that text extraction does
// not split them across line breaks.
// ---------------------------------------------------------------------------

export const PDF_PAGES = [
  {
    heading: "1. Overview",
    paragraphs: [
      "Aurora is the offline sync engine of Lumen Labs. This document describes the",
      "architecture of the first generally available release (codename Kestrel).",
      "Document version 0.9, March 2026. Author: Maya Chen.",
      "",
      "Aurora has three tiers:",
      "- Device store: an embedded SQLite database plus the local oplog.",
      "- Relay: a Go service that stores and fans out encrypted operation batches.",
      "- Archive: object storage for cold oplog segments.",
      "",
      "Cold oplog segments are kept in the archive for 400 days.",
      "After that they are deleted; devices never need them for merging.",
      "",
      "Devices talk to the relay over WebSockets on TLS 1.3.",
      "The relay never sees plaintext: payloads are encrypted on the device.",
    ],
  },
  {
    heading: "2. Data model and anti-entropy",
    paragraphs: [
      "Every change is an operation: (partition, record, field, HLC timestamp,",
      "device id, ciphertext). Scalar fields merge as last-writer-wins registers;",
      "collections merge as observed-remove sets.",
      "",
      "Replicas find missing operations with a Merkle tree.",
      "The Merkle tree uses a fan-out of 16.",
      "Each partition is split into 4,096 leaf buckets by record id hash.",
      "Two replicas compare root hashes first and descend only into",
      "subtrees whose hashes differ, so a sync after a short offline period",
      "exchanges only a few kilobytes of hashes.",
      "",
      "Anti-entropy runs on every reconnect and every 10 minutes while online.",
    ],
  },
  {
    heading: "3. Performance targets",
    paragraphs: [
      "Targets for the Kestrel release, measured on a mid-range Android phone:",
      "",
      "- p99 end-to-end sync latency: 180 ms for a batch of 512 operations.",
      "- Initial sync of 100,000 records: under 40 seconds.",
      "- Battery cost of background sync: under 3% per day.",
      "- SDK size after compression: under 2 MB.",
      "",
      "Relay capacity target: 25,000 connected devices per relay node.",
      "Load tests replay the depot reconnect storm at three times its real size.",
    ],
  },
];

function makePdf(file) {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margin: 64,
      autoFirstPage: false,
      info: {
        Title: "Aurora architecture overview",
        Author: "Maya Chen",
        Subject: "Project Aurora architecture",
        Producer: "make-sample-binaries.mjs",
        Creator: "make-sample-binaries.mjs",
        CreationDate: FIXED_DATE,
        ModDate: FIXED_DATE,
      },
    });
    const stream = fs.createWriteStream(file);
    stream.on("finish", resolve);
    stream.on("error", reject);
    doc.pipe(stream);

    PDF_PAGES.forEach((page, i) => {
      doc.addPage();
      doc.font("Helvetica-Bold").fontSize(18).text("Aurora architecture overview");
      doc.moveDown(0.3);
      doc.font("Helvetica").fontSize(9).fillColor("#555555").text(`Lumen Labs - internal - page ${i + 1} of ${PDF_PAGES.length}`);
      doc.fillColor("#000000").moveDown(1);
      doc.font("Helvetica-Bold").fontSize(14).text(page.heading);
      doc.moveDown(0.5);
      doc.font("Helvetica").fontSize(11);
      for (const line of page.paragraphs) {
        if (line === "") doc.moveDown(0.6);
        else doc.text(line, { lineGap: 2 });
      }
    });
    doc.end();
  });
}

// ---------------------------------------------------------------------------
// DOCX content.
// ---------------------------------------------------------------------------

export const DOCX_SECTIONS = [
  {
    heading: "Before your first day",
    items: [
      "Sign the contract and the confidentiality agreement in the HR portal.",
      "Send your preferred laptop keyboard layout to Lukas Becker.",
      "Read the Project Aurora hub page in the team knowledge base.",
    ],
  },
  {
    heading: "Day one",
    items: [
      "Collect your laptop and your YubiKey 5C NFC hardware key from the IT shelf.",
      "Enrol the YubiKey for single sign-on and for SSH signing.",
      "Join the Slack channels #aurora-dev, #aurora-ops and #aurora-releases.",
      "Meet your onboarding buddy. Your manager assigns the buddy before you start.",
    ],
  },
  {
    heading: "First week",
    items: [
      "Complete the security training module SEC-101 within 5 working days of your start date.",
      "Run the relay locally and sync the demo app against it.",
      "Ship your first pull request to the aurora monorepo.",
      "Sit in on the sync team weekly and one product sync.",
    ],
  },
  {
    heading: "First month",
    items: [
      "Shadow one on-call week before joining the rotation.",
      "Write or review one decision record.",
      "Have a 30-day check-in with your manager.",
    ],
  },
];

const CONTACTS = [
  ["Laptop, YubiKey, accounts", "Lukas Becker"],
  ["Payroll and contract", "Sofia Lindqvist"],
  ["Codebase and architecture", "Maya Chen"],
  ["Product and customers", "Aiko Tanaka"],
];

function buildDocx() {
  const children = [
    new Paragraph({ text: "Onboarding checklist", heading: HeadingLevel.TITLE }),
    new Paragraph({
      children: [new TextRun({ text: "Lumen Labs - engineering onboarding, version 2026-03", italics: true })],
    }),
    new Paragraph({ text: "" }),
  ];
  for (const section of DOCX_SECTIONS) {
    children.push(new Paragraph({ text: section.heading, heading: HeadingLevel.HEADING_1 }));
    for (const item of section.items) {
      children.push(new Paragraph({ children: [new TextRun(item)], bullet: { level: 0 } }));
    }
  }
  children.push(new Paragraph({ text: "Who to ask", heading: HeadingLevel.HEADING_1 }));
  children.push(
    new Table({
      width: { size: 100, type: WidthType.PERCENTAGE },
      rows: [["Topic", "Contact"], ...CONTACTS].map(
        ([topic, person], rowIndex) =>
          new TableRow({
            children: [topic, person].map(
              (cell) =>
                new TableCell({
                  children: [new Paragraph({ children: [new TextRun({ text: cell, bold: rowIndex === 0 })] })],
                }),
            ),
          }),
      ),
    }),
  );
  children.push(
    new Paragraph({
      alignment: AlignmentType.RIGHT,
      children: [new TextRun({ text: "Questions about this checklist: ask in #aurora-dev.", size: 18 })],
    }),
  );
  return new Document({
    creator: "Lumen Labs",
    title: "Onboarding checklist",
    description: "Engineering onboarding checklist for new hires at Lumen Labs",
    lastModifiedBy: "Lumen Labs",
    revision: 3,
    sections: [{ children }],
  });
}

/** Runs fn with Date frozen at FIXED_DATE and a seeded Math.random. */
async function withDeterminism(fn) {
  const RealDate = globalThis.Date;
  const realRandom = Math.random;
  const fixedMs = FIXED_DATE.getTime();
  class FixedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(fixedMs);
      else super(...args);
    }
    static now() {
      return fixedMs;
    }
  }
  let seed = 0x5eed;
  globalThis.Date = FixedDate;
  Math.random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  try {
    return await fn();
  } finally {
    globalThis.Date = RealDate;
    Math.random = realRandom;
  }
}

async function makeDocx(file) {
  const buffer = await withDeterminism(() => Packer.toBuffer(buildDocx()));
  fs.writeFileSync(file, buffer);
}

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  const pdfFile = path.join(outDir, "Aurora architecture overview.pdf");
  const docxFile = path.join(outDir, "Onboarding checklist.docx");
  await makePdf(pdfFile);
  await makeDocx(docxFile);
  for (const f of [pdfFile, docxFile]) {
    console.log(`${f} (${fs.statSync(f).size} bytes)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
