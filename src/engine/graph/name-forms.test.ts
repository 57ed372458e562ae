import { describe, expect, it } from 'vitest';
import { normalizeName } from './names.ts';
import { mergeKey } from './name-forms.ts';

const same = (a: string, b: string) => expect(mergeKey('name', a), `${a} / ${b}`).toBe(mergeKey('name', b));
const apart = (a: string, b: string) => expect(mergeKey('name', a), `${a} / ${b}`).not.toBe(mergeKey('name', b));

describe('mergeKey', () => {
  it('makes one key of an English name and its regular plural or possessive', () => {
    same('WebSocket', 'WebSockets');
    same('Pull Request', 'Pull Requests');
    same('Library', 'Libraries');
    same('Class', 'Classes');
    same('Branch', 'Branches');
    same('Cache', 'Caches');
    same('Status', 'Statuses');
    same('PDF', 'PDFs');
    same('Greenway', "Greenway's");
    same('Kestrel', 'Kestrel’s');
  });

  it('makes one key of a Russian noun’s case and number forms', () => {
    for (const form of ['Москвы', 'Москве', 'Москву', 'Москвой']) same('Москва', form);
    for (const form of ['Организации', 'Организацию', 'Организацией', 'Организациями']) same('Организация', form);
    for (const form of ['Яндекса', 'Яндексе', 'Яндексом']) same('Яндекс', form);
    same('Николай', 'Николая');
    same('Петров', 'Петрова');
    same('Площадь', 'Площадью');
  });

  it('keeps different words apart: derived words, stems that differ beyond an ending, acronyms', () => {
    apart('Release', 'Released');
    apart('Организация', 'Организатор');
    apart('Россия', 'Российский');
    apart('Петр', 'Петров');
    apart('Мария', 'Марио');
    apart('Данные', 'Данный');
    apart('Неактивное', 'Неактивно');
    apart('HTTP', 'HTTPS');
    apart('Windows', 'Windowsных');
    apart('Relay', 'Gateway');
    // Short words keep their ending: no stem to speak of ("Gas" is not "Ga"; "Рима" is not "Рим").
    apart('Gas', 'Ga');
    apart('Ops', 'Op');
    apart('Mary', 'Marie');
    apart('Рим', 'Рима');
  });

  it('reads words whatever their case, as names are compared, but an acronym keeps its capital S', () => {
    same('websockets', 'WebSocket');
    same('организации', 'Организация');
    apart('ReFS', 'REF');
    apart('iOS', 'iO');
    same('Users', "Users'");
    apart("O'Brien", 'OBrien');
  });

  it('reads only words of the alphabets it knows, without digits', () => {
    expect(mergeKey('name', 'Windows10')).toBe('windows10');
    expect(mergeKey('name', 'Київ')).toBe(normalizeName('Київ'));
    expect(mergeKey('name', 'Straße')).toBe(normalizeName('Straße'));
    expect(mergeKey('name', 'Cafés')).toBe(normalizeName('Cafés'));
  });

  it('leaves tags, statuses, dates, modules and symbols their exact key', () => {
    expect(mergeKey('tag', 'Meetings')).toBe('meetings');
    expect(mergeKey('status', 'Accepted')).toBe('accepted');
    expect(mergeKey('module', 'Requests')).toBe('requests');
    expect(mergeKey('person', 'Maya Chen')).toBe('maya chen');
    expect(mergeKey('project', 'Project Aurora')).toBe('project aurora');
  });
});
