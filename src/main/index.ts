/**
 * Electron main process: one window, locked down, and the engine in a utilityProcess.
 *
 * Security: context isolation, sandbox, no node integration; navigation, new windows, webviews and
 * permission requests denied; the renderer is served from the app's own `app://` protocol with its
 * Content-Security-Policy as a header, and every other request (http, https, ws, file, ...) is
 * cancelled, so the app is air-gapped by construction (src/main/app-protocol.ts).
 * The renderer reaches the engine only through the MessagePort handed to it here, speaking the
 * contract's protocol (src/shared/rpc.ts), and the engine's process passes only the methods the UI
 * uses (src/main/renderer-gate.ts). The system dialogs are what main answers itself: a folder to
 * add or a model file to import is granted to the engine only once the user picked it there.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, MessageChannelMain, protocol, session, utilityProcess, type IpcMainInvokeEvent, type OpenDialogOptions, type UtilityProcess, type WebContents } from 'electron';
import { APP_ORIGIN, isAppUrl as isAllowedUrl, serveAppRequest } from './app-protocol.ts';
import type { GrantMessage, PickKind } from './renderer-gate.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const RENDERER_DIR = path.join(here, '../renderer');
const DEV_URL = process.env.ELECTRON_RENDERER_URL;

protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

/** Requests the app may make: its own files, devtools, and the dev server (same origin) while developing. */
function isAppUrl(url: string): boolean {
  return isAllowedUrl(url, DEV_URL);
}

let engine: UtilityProcess | null = null;
let engineRestarts = 0;
/** Every path the user picked in a system dialog, sent again to an engine that restarted. */
const grants: GrantMessage[] = [];

function grantPicked(kind: PickKind, picked: string): void {
  const grant: GrantMessage = { type: 'grant', kind, path: picked };
  if (!grants.some((g) => g.kind === kind && g.path === picked)) grants.push(grant);
  engine?.postMessage(grant);
}

function dataDir(): string {
  return process.env.SYNAPSIS_DATA_DIR || path.join(app.getPath('userData'), 'data');
}

/** The sample vault, the questions and the tour: beside the app when packaged, in resources/ otherwise. */
function resourcesDir(): string {
  return app.isPackaged ? process.resourcesPath : path.join(app.getAppPath(), 'resources');
}

function startEngine(): UtilityProcess {
  const resources = resourcesDir();
  const child = utilityProcess.fork(path.join(here, 'engine-process.js'), [], {
    serviceName: 'Synapsis engine',
    env: {
      ...process.env,
      SYNAPSIS_DATA_DIR: dataDir(),
      SYNAPSIS_DEMO_VAULT: path.join(resources, 'sample-vault'),
      SYNAPSIS_DEMO_QUESTIONS: path.join(resources, 'sample-vault.questions.json'),
      SYNAPSIS_DEMO_TOUR: path.join(resources, 'demo-tour.json'),
      // The demo never shares the user's data dir; its models come from a folder beside the app, if any.
      SYNAPSIS_DEMO_DIR: path.join(app.getPath('userData'), 'demo'),
      SYNAPSIS_DEMO_MODELS: process.env.SYNAPSIS_DEMO_MODELS ?? path.join(resources, 'models'),
      // Models an installer carries (npm run dist -- --with-models DIR): imported on the first start.
      SYNAPSIS_BUNDLED_MODELS: process.env.SYNAPSIS_BUNDLED_MODELS ?? path.join(resources, 'models'),
    },
    stdio: 'inherit',
  });
  for (const grant of grants) child.postMessage(grant);
  child.on('exit', (code) => {
    if (engine !== child) return;
    engine = null;
    if (code !== 0 && engineRestarts < 5) {
      // The engine died (a native crash): start a new one and reconnect every window.
      engineRestarts++;
      engine = startEngine();
      for (const win of BrowserWindow.getAllWindows()) connectRenderer(win.webContents);
    }
  });
  return child;
}

/** Gives the renderer a fresh MessagePort to the engine (on every load, so a reload reconnects). */
function connectRenderer(contents: WebContents): void {
  if (!engine) engine = startEngine();
  const { port1, port2 } = new MessageChannelMain();
  engine.postMessage({ type: 'connect' }, [port1]);
  contents.postMessage('synapsis:port', null, [port2]);
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    title: 'Synapsis',
    show: false,
    webPreferences: {
      preload: path.join(here, '../preload/index.cjs'),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.on('did-finish-load', () => connectRenderer(win.webContents));
  if (DEV_URL) void win.loadURL(DEV_URL);
  else void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

app.on('web-contents-created', (_event, contents) => {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

void app.whenReady().then(() => {
  // Read from disk here rather than net.fetch(file://), which the request filter below would cancel.
  protocol.handle('app', (request) => serveAppRequest(RENDERER_DIR, request.url));
  // Air-gapped by construction: nothing but the app's own files is ever requested.
  session.defaultSession.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAppUrl(details.url) }));
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  // The user's pick in the system dialog is the gesture that lets the engine read that path.
  const pick = async (event: IpcMainInvokeEvent, kind: PickKind, options: OpenDialogOptions): Promise<string | null> => {
    if (!event.senderFrame || !isAppUrl(event.senderFrame.url)) return null;
    const win = BrowserWindow.fromWebContents(event.sender);
    const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    const picked = result.canceled ? null : (result.filePaths[0] ?? null);
    if (picked) grantPicked(kind, picked);
    return picked;
  };
  ipcMain.handle('synapsis:pickFolder', (event) => pick(event, 'folder', { properties: ['openDirectory'], title: 'Choose a folder for Synapsis' }));
  ipcMain.handle('synapsis:pickModelFile', (event) =>
    pick(event, 'model', { properties: ['openFile'], title: 'Choose a model to import', filters: [{ name: 'GGUF models', extensions: ['gguf'] }] }),
  );
  ipcMain.handle('synapsis:pickModelFolder', (event) => pick(event, 'modelFolder', { properties: ['openDirectory'], title: 'Choose the folder that holds the models (.gguf)' }));
  engine = startEngine();
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

/** A .md file opened with the app (file association): the renderer shows it or offers its folder. */
function openFile(file: string): void {
  const win = BrowserWindow.getAllWindows()[0];
  if (!win) return;
  win.webContents.send('synapsis:open-file', path.resolve(file));
  if (win.isMinimized()) win.restore();
  win.focus();
}
const pendingFiles = process.argv.slice(1).filter((a) => /\.(md|markdown)$/i.test(a));
app.on('open-file', (event, file) => {
  event.preventDefault();
  if (app.isReady() && BrowserWindow.getAllWindows().length > 0) openFile(file);
  else pendingFiles.push(file);
});
app.on('browser-window-created', (_e, win) => win.webContents.once('did-finish-load', () => pendingFiles.splice(0).forEach(openFile)));

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('will-quit', () => {
  const child = engine;
  engine = null;
  child?.kill();
});
