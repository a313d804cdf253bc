# Loads MISP events with PyMISP (MISPEvent().load) and prints what PyMISP made of them as JSON:
# per event its uuid, info, date, levels, tags, attributes, objects (with their attributes and
# whether the object template knows each relation), PyMISP's manifest entry and the md5 hashes its
# feed output (to_feed(with_meta=True)) computes. Input: a JSON file holding a list of events.
import json
import sys
import warnings

from pymisp import MISPEvent

warnings.simplefilter('error')


def attribute(a):
    return {'uuid': a.uuid, 'type': a.type, 'category': a.category, 'value': str(a.value), 'to_ids': a.to_ids, 'object_relation': getattr(a, 'object_relation', None)}


def summary(raw):
    event = MISPEvent()
    event.load(raw)
    objects = []
    for o in event.objects:
        known = set(o._definition['attributes'].keys()) if getattr(o, '_definition', None) else set()
        objects.append({'uuid': o.uuid, 'name': o.name, 'template_uuid': o.template_uuid, 'template_version': str(o.template_version),
                        'known_relations': sorted(known), 'attributes': [attribute(a) for a in o.attributes]})
    feed = event.to_feed(with_meta=True)
    return {
        'uuid': event.uuid, 'info': event.info, 'date': event.date.isoformat(),
        'threat_level_id': event.threat_level_id, 'analysis': event.analysis, 'distribution': event.distribution,
        'tags': [t.name for t in event.tags], 'attributes': [attribute(a) for a in event.attributes], 'objects': objects,
        'manifest': json.loads(json.dumps(event.manifest, default=str)), 'hashes': feed['Event']['_hashes'],
    }


with open(sys.argv[1], encoding='utf-8') as f:
    events = json.load(f)
print(json.dumps([summary(e) for e in events]))
